package codex

import (
	"strings"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/event"
)

// Dialect is OpenAI Codex CLI's: `agenthooks run --from codex` as a
// command hook in ~/.codex/hooks.json or config.toml.
//
// In: Claude-shaped payloads (session_id, turn_id, cwd, model,
// hook_event_name, tool_name, tool_input). Tools: Bash (Shell),
// apply_patch (Write; after it runs, one afterFileEdit per file the patch
// touches), mcp__server__tool (MCP:tool). Events as Claude's: PreToolUse,
// PostToolUse, UserPromptSubmit, Stop, SubagentStop, SessionStart,
// SessionEnd, PreCompact; the others have no Cursor counterpart.
//
// Out: JSON on stdout and exit 0, in the shapes Codex's output parser
// accepts (it rejects unknown keys and unsupported values, and a rejected
// answer counts as a failed hook, which fails open):
//   - deny: permissionDecision "deny" with a non-empty reason.
//   - ask: Codex rejects it, so a hook's ask becomes a deny whose reason
//     tells the model to get the user's confirmation.
//   - allow: Codex accepts "allow" only together with updatedInput, so an
//     allow is always "no objection" (even with --allow-means=approve),
//     and a rewrite is sent as allow + updatedInput.
//   - follow-ups and blocked prompts: decision "block" with the reason.
//   - SessionStart: additionalContext; the env appended to
//     $CODEX_ENV_FILE (else $CLAUDE_ENV_FILE).
//
// A payload agenthooks cannot read exits 1: a failed hook, fail-open,
// Codex's convention for every hook failure.
var Dialect = &agent.Dialect{
	Name:         "codex",
	GateEvents:   events.OfKind(agent.Tool),
	PromptEvents: events.OfKind(agent.Prompt),
	Title:        "Codex",
	EnvFileVars:  []string{"CODEX_ENV_FILE", "CLAUDE_ENV_FILE"},
	ParseFn:      codexShaped.Parse,
	AnswerFn:     answerCodex,
}

// codexTools maps Codex's tool names to Cursor's. apply_patch is Codex's
// only file-writing tool (its matchers alias it as Write and Edit).
var codexTools = tools.Specs()

// tools are Codex's tools with a Cursor name (apply_patch is its one
// file-writing tool): what the dialect reads and export writes.
var tools = agent.ToolTable{
	{Name: "Bash", Cursor: agent.ToolShell, Role: agent.RoleShell},
	{Name: "apply_patch", Cursor: agent.ToolWrite, Role: agent.RoleOther},
}

var codexEvents = events.Kinds()

// events are Codex's events with a Cursor counterpart, in the order of a
// session: what the dialect reads, install wires and export writes.
var events = agent.EventTable{
	{Name: "SessionStart", Kind: agent.SessionStart},
	{Name: "UserPromptSubmit", Kind: agent.Prompt},
	{Name: "PreToolUse", Kind: agent.Tool},
	{Name: "PostToolUse", Kind: agent.PostTool},
	{Name: "Stop", Kind: agent.Stop},
	{Name: "SubagentStop", Kind: agent.SubagentStop},
	{Name: "PreCompact", Kind: agent.Compact},
	{Name: "SessionEnd", Kind: agent.SessionEnd},
}

// codexShaped: Codex's payloads are Claude's, with turn_id for the turn.
var codexShaped = &agent.PayloadShape{Agent: "Codex", Generation: "turn_id", Model: true, Events: codexEvents,
	Tool: func(c agent.Common, f *agent.Fields, r *agent.Request) {
		t, files := codexTool(c, f)
		agent.ToolEvent(c, f, r, t)
		if r.Kind != agent.PostTool {
			return
		}
		for _, pf := range files {
			r.Calls = append(r.Calls, agent.Call{Step: event.AfterFileEdit, Payload: c.Base(map[string]any{
				"file_path": c.Abs(pf.path),
				"edits":     pf.edits,
			})})
		}
	}}

// codexTool reads the tool call, and the files an apply_patch touches: a
// patch may touch several, each an afterFileEdit once it ran, and the
// first names the edit. apply_patch is no kindWrite (roleOther), so
// postCalls adds no afterFileEdit of its own.
func codexTool(c agent.Common, f *agent.Fields) (*agent.ToolCall, []patchFile) {
	t := agent.ToolOf(c, f, codexTools)
	if t.AgentName != "apply_patch" {
		return t, nil
	}
	files := parsePatch(agent.Str(t.AgentInput, "command", "patch", "input"))
	if len(files) > 0 {
		t.FilePath = c.Abs(files[0].path)
	}
	return t, files
}

func answerCodex(r *agent.Request, v *agent.Verdict, _ agent.Options) agent.Answer {
	return agent.AnswerShaped(r, v, func(hso map[string]any) {
		switch v.Permission {
		case event.Deny:
			hso["permissionDecision"] = "deny"
			hso["permissionDecisionReason"] = v.Reason
		case event.Ask:
			hso["permissionDecision"] = "deny"
			hso["permissionDecisionReason"] = agent.AskAsDeny("Codex hooks", v)
		default:
			if in := r.AgentInput(v.UpdatedInput); in != nil {
				hso["permissionDecision"] = "allow"
				hso["updatedInput"] = in
			}
		}
	})
}

// patchFile is one file an apply_patch patch adds or updates.
type patchFile struct {
	path  string
	edits []event.FileEdit
}

// parsePatch reads the files and replacements of a Codex patch
// ("*** Begin Patch" … "*** End Patch"): an added file is one edit from
// "" to its lines; each "@@" hunk of an updated file is one edit from its
// context and removed lines to its context and added lines. Deleted files
// have no edit to report and are left out.
func parsePatch(patch string) []patchFile {
	var files []patchFile
	var cur *patchFile
	var oldLines, newLines []string
	adding := false
	flush := func() {
		if cur != nil && (len(oldLines) > 0 || len(newLines) > 0) {
			cur.edits = append(cur.edits, event.FileEdit{
				OldString: strings.Join(oldLines, "\n"),
				NewString: strings.Join(newLines, "\n"),
			})
		}
		oldLines, newLines = nil, nil
	}
	closeFile := func() {
		flush()
		if cur != nil {
			if cur.edits == nil {
				cur.edits = []event.FileEdit{}
			}
			files = append(files, *cur)
		}
		cur = nil
	}
	for _, line := range strings.Split(strings.ReplaceAll(patch, "\r\n", "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "*** Add File: "):
			closeFile()
			cur, adding = &patchFile{path: strings.TrimSpace(line[len("*** Add File: "):])}, true
		case strings.HasPrefix(line, "*** Update File: "):
			closeFile()
			cur, adding = &patchFile{path: strings.TrimSpace(line[len("*** Update File: "):])}, false
		case strings.HasPrefix(line, "*** Move to: "):
			if cur != nil {
				cur.path = strings.TrimSpace(line[len("*** Move to: "):])
			}
		case strings.HasPrefix(line, "*** Delete File: "), strings.HasPrefix(line, "*** End Patch"):
			closeFile()
		case strings.HasPrefix(line, "*** "):
			// Begin Patch, End of File: markers without content.
		case cur == nil:
		case strings.HasPrefix(line, "@@"):
			flush()
		case adding && strings.HasPrefix(line, "+"):
			newLines = append(newLines, line[1:])
		case adding:
		case strings.HasPrefix(line, "-"):
			oldLines = append(oldLines, line[1:])
		case strings.HasPrefix(line, "+"):
			newLines = append(newLines, line[1:])
		case strings.HasPrefix(line, " "):
			oldLines, newLines = append(oldLines, line[1:]), append(newLines, line[1:])
		}
	}
	closeFile()
	return files
}
