package gemini

import (
	"github.com/agenthooks/agenthooks/agent"
	"strings"
)

// Dialect is Gemini CLI's: `agenthooks run --from gemini` as a
// command hook in .gemini/settings.json or ~/.gemini/settings.json.
//
// In: session_id, transcript_path, cwd, hook_event_name, timestamp and
// the event's fields (Gemini CLI's hooks documentation; docs/dialects.md).
//
//	BeforeTool   preToolUse, + beforeShellExecution (run_shell_command),
//	             beforeReadFile (read_file), beforeMCPExecution (a tool
//	             with mcp_context)
//	AfterTool    postToolUse, + afterShellExecution, afterFileEdit
//	             (write_file, replace), afterMCPExecution; a response
//	             with an error is postToolUseFailure
//	BeforeAgent  beforeSubmitPrompt
//	AfterAgent   stop
//	SessionStart, SessionEnd, PreCompress  sessionStart, sessionEnd, preCompact
//	BeforeModel, AfterModel, BeforeToolSelection, Notification  no hooks
//
// Out: always one JSON object on stdout and exit 0. Gemini reads the
// object whatever the exit code, and with stdout empty it would take
// stderr as the answer, so even "nothing to say" is {}. deny and ask are
// Gemini's own decisions ("reason" reaches the model on deny); allow only
// with --allow-means=approve (it never bypasses Gemini's policy anyway);
// a rewrite is hookSpecificOutput.tool_input, which Gemini merges into the
// tool's input; a blocked prompt is decision "deny"; a stop follow-up is
// AfterAgent's decision "deny", which Gemini retries with the reason as
// the prompt. Gemini has no env file: the sessionStart env reaches later
// hooks through agenthooks' session only. A payload agenthooks cannot
// read exits 1 with the error on stderr, which Gemini turns into an allow
// with a warning: its convention for failing hooks (fail-open).
var Dialect = &agent.Dialect{
	Name:           "gemini",
	GateEvents:     events.OfKind(agent.Tool),
	PromptEvents:   events.OfKind(agent.Prompt),
	Title:          "Gemini CLI",
	ProjectDirVars: []string{"GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"},
	ParseFn:        geminiShaped.Parse,
	AnswerFn:       answerGemini,
}

// geminiTools maps Gemini CLI's built-in tools to Cursor's names (its own
// Claude migration table, reversed: Bash→run_shell_command, Edit→replace,
// Read→read_file, Write→write_file, Glob→glob, Grep→grep).
var geminiTools = tools.Specs()

// tools are Gemini CLI's tools with a Cursor name: what the dialect
// reads and export writes.
var tools = agent.ToolTable{
	{Name: "run_shell_command", Cursor: agent.ToolShell, Role: agent.RoleShell},
	{Name: "read_file", Cursor: agent.ToolRead, Role: agent.RoleRead},
	{Name: "read_many_files", Cursor: agent.ToolRead, Role: agent.RoleOther},
	{Name: "write_file", Cursor: agent.ToolWrite, Role: agent.RoleWrite},
	{Name: "replace", Cursor: agent.ToolWrite, Role: agent.RoleEdit},
	{Name: "edit", Cursor: agent.ToolWrite, Role: agent.RoleEdit},
	{Name: "grep", Cursor: agent.ToolGrep, Role: agent.RoleOther},
	{Name: "grep_search", Cursor: agent.ToolGrep, Role: agent.RoleOther},
	{Name: "search_file_content", Cursor: agent.ToolGrep, Role: agent.RoleOther},
	{Name: "glob", Cursor: agent.ToolGlob, Role: agent.RoleOther},
	{Name: "web_fetch", Cursor: "WebFetch", Role: agent.RoleOther},
	{Name: "google_web_search", Cursor: "WebSearch", Role: agent.RoleOther},
	{Name: "list_directory", Cursor: "LS", Role: agent.RoleOther},
}

var geminiEvents = events.Kinds()

// events are Gemini CLI's events with a Cursor counterpart, in the order
// of a session: what the dialect reads, install wires and export writes.
var events = agent.EventTable{
	{Name: "SessionStart", Kind: agent.SessionStart},
	{Name: "BeforeAgent", Kind: agent.Prompt},
	{Name: "BeforeTool", Kind: agent.Tool},
	{Name: "AfterTool", Kind: agent.PostTool},
	{Name: "AfterAgent", Kind: agent.Stop},
	{Name: "PreCompress", Kind: agent.Compact},
	{Name: "SessionEnd", Kind: agent.SessionEnd},
}

// geminiShaped: Gemini CLI's payloads are Claude's without a turn id or
// model; an AfterTool whose response holds an error is a failure.
var geminiShaped = &agent.PayloadShape{Agent: "Gemini CLI", Events: geminiEvents,
	Tool: func(c agent.Common, f *agent.Fields, r *agent.Request) {
		t := geminiTool(c, f)
		if f.Err != nil {
			return
		}
		r.ToolUse = t
		if r.Kind == agent.Tool {
			r.Calls = c.PreCalls(t)
			return
		}
		if msg := agent.ErrorText(f.Obj("tool_response")["error"]); msg != "" {
			r.Kind, r.Calls = agent.ToolFailure, []agent.Call{c.FailureCall(t, msg, false, 0)}
			return
		}
		raw := f.Raw("tool_response")
		r.Calls = c.PostCalls(t, raw, agent.ResultText(raw), 0)
	}}

// geminiTool reads tool_name, tool_input and, for MCP tools, mcp_context,
// which names the server and the tool as the server calls it.
func geminiTool(c agent.Common, f *agent.Fields) *agent.ToolCall {
	name := f.Need("tool_name")
	agentInput := f.NeedObj("tool_input")
	mcp := f.Obj("mcp_context")
	if server, tool := agent.Str(mcp, "server_name"), agent.Str(mcp, "tool_name"); server != "" || tool != "" {
		return agent.MCPToolCall(name, "", server, agent.OrElse(tool, name), agentInput, agent.Clone(agentInput))
	}
	if rest, ok := strings.CutPrefix(name, "mcp_"); ok && rest != "" {
		// Gemini CLI names an MCP tool mcp_<server>_<tool>, and sends
		// mcp_context unless it cannot find the server's settings: then
		// the name is all there is, and "_" may be in either part.
		if readings := agent.MCPReadings(rest, "_", false); len(readings) > 0 {
			return agent.AmbiguousMCPToolCall(name, "", readings, agentInput, agent.Clone(agentInput))
		}
	}
	spec := agent.SpecOf(geminiTools, name)
	input := agent.Clone(agentInput)
	if spec.Role == agent.RoleShell {
		// run_shell_command's folder is dir_path (earlier: directory).
		if d := agent.Str(agentInput, "dir_path", "directory"); d != "" {
			input["working_directory"] = c.Abs(d)
		}
	}
	t := c.Describe(name, spec, "", agentInput, input)
	if _, ok := agentInput["working_directory"]; !ok && spec.Role == agent.RoleShell {
		t.Added["working_directory"] = true
	}
	return t
}

func answerGemini(r *agent.Request, v *agent.Verdict, o agent.Options) agent.Answer {
	out := map[string]any{}
	hso := map[string]any{"hookEventName": r.Event}
	switch r.Kind {
	case agent.Tool:
		agent.Decide(out, "decision", "reason", v, o)
		if in := r.Rewrite(v); in != nil {
			hso["tool_input"] = in
		}
	case agent.PostTool:
		if v.Context != "" {
			hso["additionalContext"] = v.Context
		}
	case agent.Prompt:
		if v.PromptBlocked {
			out["decision"] = "deny"
			out["reason"] = agent.OrElse(v.PromptMessage, "Submission blocked by hook")
		}
	case agent.Stop:
		if v.Followup != "" {
			out["decision"] = "deny"
			out["reason"] = v.Followup
		}
	case agent.SessionStart:
		if v.Context != "" {
			hso["additionalContext"] = v.Context
		}
	case agent.Compact:
		if v.Notice != "" {
			out["systemMessage"] = v.Notice
		}
	}
	if len(hso) > 1 {
		out["hookSpecificOutput"] = hso
	}
	return agent.Answer{Stdout: agent.JSONLine(out)}
}
