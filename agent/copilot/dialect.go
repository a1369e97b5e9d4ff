package copilot

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// Dialect is GitHub Copilot's (the CLI and the cloud agent):
// `agenthooks run --from copilot EVENT` as a command hook in
// .github/hooks/*.json or ~/.copilot/hooks/*.json.
//
// In: both of Copilot's payload formats. An event configured in camelCase
// (preToolUse) gets camelCase fields (sessionId, toolName, toolArgs) and
// no event name, so the event is the EVENT argument, else it is inferred
// from the fields (toolName and toolResult: postToolUse; toolName and
// error: postToolUseFailure; toolName: preToolUse; prompt; stopReason;
// agentName; source; reason; trigger). An event configured in PascalCase
// (PreToolUse) gets hook_event_name and snake_case fields.
//
//	preToolUse           preToolUse, + beforeShellExecution (bash,
//	                     powershell), beforeReadFile (view),
//	                     beforeMCPExecution (<server>-<tool>: any other
//	                     name with a "-")
//	postToolUse          postToolUse, + afterShellExecution, afterFileEdit
//	                     (create, edit)
//	postToolUseFailure   postToolUseFailure
//	userPromptSubmitted  beforeSubmitPrompt
//	agentStop / Stop, subagentStop  stop, subagentStop
//	sessionStart, sessionEnd, preCompact  sessionStart, sessionEnd, preCompact
//	subagentStart, permissionRequest, notification, errorOccurred  no hooks
//
// Out: JSON on stdout and exit 0 (Copilot reads exit 2 as a mere warning):
// permissionDecision deny with permissionDecisionReason, ask (the cloud
// agent treats it as deny itself), allow only with --allow-means=approve,
// modifiedArgs for a rewrite; PascalCase payloads also get the same answer
// as hookSpecificOutput, the VS Code form. A follow-up at agentStop or
// subagentStop is decision "block" with the reason as the next prompt.
// Copilot does not read answers to userPromptSubmitted, sessionStart or
// preCompact: a blocked prompt cannot be stopped, so agenthooks exits 2
// with the hook's message on stderr, which Copilot shows as a warning.
// A payload agenthooks cannot read exits 1: Copilot logs failing hooks and
// goes on (fail-open).
var Dialect = &agent.Dialect{
	Name: "copilot",
	// In both spellings.
	GateEvents:   bothSpellings(events.OfKind(agent.Tool)),
	PromptEvents: bothSpellings(events.OfKind(agent.Prompt)),
	Title:        "GitHub Copilot",
	// Copilot CLI runs the hooks of a project's .claude/settings.json and
	// .claude/settings.local.json itself (in a folder it trusts), not
	// those of the user's ~/.claude/settings.json nor of the plugins any
	// of them enables: agenthooks runs those (e2e
	// TestCopilotRunsClaudeSettings).
	RunsItself: []string{"claude-project-local", "claude-project"},
	ParseFn:    parseCopilot,
	AnswerFn:   answerCopilot,
	// Copilot reads a deny from stdout (exit 2 is only a warning to it),
	// in both of its answer shapes.
	RefuseFn: func(msg string) agent.Answer {
		deny := map[string]any{"permissionDecision": "deny", "permissionDecisionReason": msg}
		out := map[string]any{"permissionDecision": "deny", "permissionDecisionReason": msg,
			"hookSpecificOutput": deny}
		return agent.Answer{Stdout: agent.JSONLine(out), Stderr: msg}
	},
}

// copilotTools maps Copilot's tool names to Cursor's.
var copilotTools = tools.Specs()

// tools are Copilot's tools with a Cursor name: what the dialect reads
// and export writes.
var tools = agent.ToolTable{
	{Name: "bash", Cursor: agent.ToolShell, Role: agent.RoleShell},
	{Name: "powershell", Cursor: agent.ToolShell, Role: agent.RoleShell},
	{Name: "view", Cursor: agent.ToolRead, Role: agent.RoleRead},
	{Name: "create", Cursor: agent.ToolWrite, Role: agent.RoleWrite},
	{Name: "edit", Cursor: agent.ToolWrite, Role: agent.RoleEdit},
	{Name: "grep", Cursor: agent.ToolGrep, Role: agent.RoleOther},
	{Name: "glob", Cursor: agent.ToolGlob, Role: agent.RoleOther},
	{Name: "task", Cursor: agent.ToolTask, Role: agent.RoleTask},
	{Name: "web_fetch", Cursor: "WebFetch", Role: agent.RoleOther},
}

// events are Copilot's events with a Cursor counterpart, in the order of
// a session: what the dialect reads, install wires and export writes.
var events = agent.EventTable{
	{Name: "sessionStart", Kind: agent.SessionStart},
	{Name: "userPromptSubmitted", Kind: agent.Prompt},
	{Name: "preToolUse", Kind: agent.Tool},
	{Name: "postToolUse", Kind: agent.PostTool},
	{Name: "postToolUseFailure", Kind: agent.ToolFailure},
	{Name: "agentStop", Kind: agent.Stop},
	{Name: "subagentStop", Kind: agent.SubagentStop},
	{Name: "preCompact", Kind: agent.Compact},
	{Name: "sessionEnd", Kind: agent.SessionEnd},
}

// pascalNames are the events' names in the VS Code compatible format.
var pascalNames = map[string]string{
	"sessionStart": "SessionStart", "userPromptSubmitted": "UserPromptSubmit", "preToolUse": "PreToolUse",
	"postToolUse": "PostToolUse", "postToolUseFailure": "PostToolUseFailure", "agentStop": "Stop",
	"subagentStop": "SubagentStop", "preCompact": "PreCompact", "sessionEnd": "SessionEnd",
}

// bothSpellings are the events in both of Copilot's spellings.
func bothSpellings(names []string) []string {
	var out []string
	for _, n := range names {
		out = append(out, n, pascalNames[n])
	}
	return out
}

// copilotEvents maps both spellings of Copilot's events to one name.
var copilotEvents = func() map[string]string {
	m := map[string]string{}
	for _, e := range events {
		m[e.Name], m[pascalNames[e.Name]] = e.Name, e.Name
	}
	return m
}()

func parseCopilot(payload []byte, arg string) (*agent.Request, error) {
	m, err := agent.Object("GitHub Copilot", payload)
	if err != nil {
		return nil, err
	}
	f := &agent.Fields{M: m, Agent: "GitHub Copilot"}
	ev := f.Str("hook_event_name")
	_, camel := m["sessionId"]
	pascal := ev != "" && !camel
	if ev == "" {
		ev = arg
	}
	if ev == "" {
		ev = inferCopilot(m)
	}
	if ev == "" {
		f.Fail(fmt.Errorf("the payload does not say which event it is; name it after --from copilot, e.g. agenthooks run --from copilot preToolUse"))
		return nil, f.Err
	}
	f.Event = ev
	key := func(camel, snake string) string {
		if pascal {
			return snake
		}
		return camel
	}
	c := agent.Common{
		Conversation: f.Str(key("sessionId", "session_id")),
		Transcript:   f.Str(key("transcriptPath", "transcript_path")),
		Cwd:          f.Str("cwd"),
	}
	r := &agent.Request{Event: ev, Cwd: c.Cwd, Variant: pascal, Shared: c}
	name, known := copilotEvents[ev]
	if !known {
		return agent.NoneRequest(ev, fmt.Sprintf("GitHub Copilot event %q has no Cursor counterpart; no hooks ran", ev)), nil
	}
	switch name {
	case "preToolUse", "postToolUse", "postToolUseFailure":
		f.Gate = name == "preToolUse"
		t := copilotTool(c, f, key("toolName", "tool_name"), key("toolArgs", "tool_input"))
		if f.Err != nil {
			return nil, f.Err
		}
		r.ToolUse = t
		switch name {
		case "preToolUse":
			r.Kind, r.Calls = agent.Tool, c.PreCalls(t)
		case "postToolUse":
			res := f.Obj(key("toolResult", "tool_result"))
			text := agent.Str(res, "textResultForLlm", "text_result_for_llm")
			out, _ := agent.Encode(text)
			r.Kind, r.Calls = agent.PostTool, c.PostCalls(t, out, text, 0)
		default:
			r.Kind, r.Calls = agent.ToolFailure, []agent.Call{c.FailureCall(t, agent.ErrorText(anyField(m, "error")), false, 0)}
		}
	case "userPromptSubmitted":
		r.Kind, r.Calls = agent.Prompt, []agent.Call{c.PromptCall(f.Str("prompt"))}
	case "agentStop":
		active, known := copilotStopActive(f)
		r.Kind, r.Calls = agent.Stop, []agent.Call{c.StopCall(event.StatusCompleted, active, known)}
	case "subagentStop":
		active, known := copilotStopActive(f)
		r.Kind = agent.SubagentStop
		r.Calls = []agent.Call{c.SubagentStopCall("", f.Str(key("agentName", "agent_name")), "", "", active, known)}
	case "sessionStart":
		r.Kind, r.Calls = agent.SessionStart, []agent.Call{c.SessionStartCall(f.Str("source"))}
	case "sessionEnd":
		r.Kind, r.Calls = agent.SessionEnd, []agent.Call{c.SessionEndCall(f.Str("reason"))}
	case "preCompact":
		r.Kind, r.Calls = agent.Compact, []agent.Call{c.CompactCall(f.Str("trigger"))}
	}
	if f.Err != nil {
		return nil, f.Err
	}
	return r, nil
}

// inferCopilot names the event of a camelCase payload from its fields,
// for hooks configured without the EVENT argument.
func inferCopilot(m map[string]json.RawMessage) string {
	has := func(k string) bool { _, ok := m[k]; return ok }
	switch {
	case has("toolName") && has("toolResult"):
		return "postToolUse"
	case has("toolName") && has("error"):
		return "postToolUseFailure"
	case has("toolName"):
		return "preToolUse"
	case has("prompt"):
		return "userPromptSubmitted"
	case has("agentName") && has("stopReason"):
		return "subagentStop"
	case has("agentName"):
		return "subagentStart"
	case has("stopReason"):
		return "agentStop"
	case has("errorContext"):
		return "errorOccurred"
	case has("source"):
		return "sessionStart"
	case has("reason"):
		return "sessionEnd"
	case has("trigger"):
		return "preCompact"
	}
	return ""
}

// copilotTool reads the tool's name and arguments; camelCase payloads may
// carry the arguments as a JSON string.
func copilotTool(c agent.Common, f *agent.Fields, nameKey, argsKey string) *agent.ToolCall {
	name := f.Need(nameKey)
	var agentInput map[string]any
	raw := f.Raw(argsKey)
	if len(raw) == 0 || string(raw) == "null" {
		agentInput = map[string]any{}
	} else if s, isString := jsonscan.String(raw); isString {
		var err error
		if agentInput, err = jsonscan.DecodeObject([]byte(s)); err != nil || agentInput == nil {
			f.Fail(fmt.Errorf("field %q is a string that does not hold a JSON object: %s", argsKey, agent.Clip([]byte(s))))
			agentInput = map[string]any{}
		}
	} else {
		agentInput = f.Obj(argsKey)
	}
	if _, builtin := copilotTools[name]; !builtin && strings.Contains(name, "-") {
		// Copilot CLI names an MCP tool <server>-<tool> (its own tools
		// have no "-"), and either part may hold a "-" of its own.
		return agent.AmbiguousMCPToolCall(name, "", agent.MCPReadings(name, "-", true), agentInput, agent.Clone(agentInput))
	}
	spec := agent.SpecOf(copilotTools, name)
	return c.Describe(name, spec, "", agentInput, agent.Clone(agentInput))
}

// anyField decodes one field of a payload (as jsonscan.Decode does), nil
// when absent.
func anyField(m map[string]json.RawMessage, k string) any {
	v, _ := jsonscan.Decode(m[k])
	return v
}

func answerCopilot(r *agent.Request, v *agent.Verdict, o agent.Options) agent.Answer {
	out := map[string]any{}
	switch r.Kind {
	case agent.Tool:
		agent.Decide(out, "permissionDecision", "permissionDecisionReason", v, o)
		if in := r.Rewrite(v); in != nil {
			out["modifiedArgs"] = in
		}
		if r.Variant && len(out) > 0 {
			hso := map[string]any{"hookEventName": r.Event}
			for k, val := range out {
				if k == "modifiedArgs" {
					k = "updatedInput"
				}
				hso[k] = val
			}
			out["hookSpecificOutput"] = hso
		}
	case agent.Prompt:
		if v.PromptBlocked {
			return agent.Answer{Stderr: agent.OrElse(v.PromptMessage, "Submission blocked by hook") +
				" (GitHub Copilot cannot stop a prompt from a hook; the prompt went ahead)", Code: 2}
		}
	case agent.Stop, agent.SubagentStop:
		if v.Followup != "" {
			out["decision"] = "block"
			out["reason"] = v.Followup
		}
	}
	if len(out) == 0 {
		return agent.Answer{}
	}
	return agent.Answer{Stdout: agent.JSONLine(out)}
}

// copilotStopActive reads whether Copilot is already going on because of
// a stop hook's block, which Copilot CLI (1.0.102) says as
// stop_hook_active in both payload forms (stopHookActive is read too, in
// case a camelCase payload spells it so). known is false when the payload
// does not say: the engine's own count of follow-ups in a row then
// stands, so loop_limit still ends the loop.
func copilotStopActive(f *agent.Fields) (active, known bool) {
	for _, k := range []string{"stop_hook_active", "stopHookActive"} {
		if raw, ok := f.M[k]; ok && string(raw) != "null" {
			return f.Bool(k), true
		}
	}
	return false, false
}
