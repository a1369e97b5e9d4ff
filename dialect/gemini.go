package dialect

import (
	"encoding/json"
	"fmt"

	"github.com/agenthooks/agenthooks/event"
)

// Gemini is Gemini CLI's dialect: `agenthooks run --from gemini` as a
// command hook in .gemini/settings.json or ~/.gemini/settings.json.
//
// In: session_id, transcript_path, cwd, hook_event_name, timestamp and
// the event's fields (other-agents.md §3).
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
var Gemini = &Dialect{
	Name:           "gemini",
	Title:          "Gemini CLI",
	ProjectDirVars: []string{"GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"},
	parse:          parseGemini,
	answer:         answerGemini,
}

// geminiTools maps Gemini CLI's built-in tools to Cursor's names (its own
// Claude migration table, reversed: Bash→run_shell_command, Edit→replace,
// Read→read_file, Write→write_file, Glob→glob, Grep→grep).
var geminiTools = map[string]toolSpec{
	"run_shell_command":   {toolShell, roleShell},
	"read_file":           {toolRead, roleRead},
	"read_many_files":     {toolRead, roleOther},
	"write_file":          {toolWrite, roleWrite},
	"replace":             {toolWrite, roleEdit},
	"edit":                {toolWrite, roleEdit},
	"glob":                {toolGlob, roleOther},
	"grep":                {toolGrep, roleOther},
	"grep_search":         {toolGrep, roleOther},
	"search_file_content": {toolGrep, roleOther},
	"list_directory":      {"LS", roleOther},
	"web_fetch":           {"WebFetch", roleOther},
	"google_web_search":   {"WebSearch", roleOther},
}

var geminiEvents = []string{"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "SessionStart", "SessionEnd", "PreCompress"}

func parseGemini(payload []byte, arg string) (*Request, error) {
	m, err := object("Gemini CLI", payload)
	if err != nil {
		return nil, err
	}
	f := &fields{m: m, agent: "Gemini CLI"}
	ev := orElse(f.str("hook_event_name"), arg)
	if ev == "" {
		f.fail(fmt.Errorf(`field "hook_event_name" is missing; Gemini CLI always sends it`))
		return nil, f.err
	}
	f.event = ev
	c := common{
		conversation: f.str("session_id"),
		transcript:   f.str("transcript_path"),
		cwd:          f.str("cwd"),
	}
	r := &Request{Event: ev, Cwd: c.cwd}
	switch ev {
	case "BeforeTool", "AfterTool":
		f.gate = ev == "BeforeTool"
		t := geminiTool(c, f)
		if f.err != nil {
			return nil, f.err
		}
		r.tool = t
		if ev == "BeforeTool" {
			r.Kind, r.Calls = Tool, c.preCalls(t)
			break
		}
		resp := f.obj("tool_response")
		if msg := errorText(resp["error"]); msg != "" {
			r.Kind, r.Calls = ToolFailure, []Call{c.failureCall(t, msg, false, 0)}
			break
		}
		raw := f.raw("tool_response")
		r.Kind, r.Calls = PostTool, c.postCalls(t, raw, resultText(raw), 0)
	case "BeforeAgent":
		r.Kind, r.Calls = Prompt, []Call{c.promptCall(f.str("prompt"))}
	case "AfterAgent":
		r.Kind, r.Calls = Stop, []Call{c.stopCall(event.StatusCompleted, f.boolean("stop_hook_active"), true)}
	case "SessionStart":
		r.Kind, r.Calls = SessionStart, []Call{c.sessionStartCall(f.str("source"))}
	case "SessionEnd":
		r.Kind, r.Calls = SessionEnd, []Call{c.sessionEndCall(f.str("reason"))}
	case "PreCompress":
		r.Kind, r.Calls = Compact, []Call{c.compactCall(f.str("trigger"))}
	default:
		return none(ev, fmt.Sprintf("Gemini CLI event %q has no Cursor counterpart; no hooks ran (mapped: %s)", ev, eventList(geminiEvents))), nil
	}
	if f.err != nil {
		return nil, f.err
	}
	return r, nil
}

// geminiTool reads tool_name, tool_input and, for MCP tools, mcp_context,
// which names the server and the tool as the server calls it.
func geminiTool(c common, f *fields) *toolCall {
	name := f.need("tool_name")
	agentInput := f.needObj("tool_input")
	mcp := f.obj("mcp_context")
	if server, tool := str(mcp, "server_name"), str(mcp, "tool_name"); server != "" || tool != "" {
		return mcpTool(name, "", server, orElse(tool, name), agentInput, clone(agentInput))
	}
	spec, ok := geminiTools[name]
	if !ok {
		spec = toolSpec{name, roleOther}
	}
	input := clone(agentInput)
	if spec.role == roleShell {
		// run_shell_command's folder is dir_path (earlier: directory).
		if d := str(agentInput, "dir_path", "directory"); d != "" {
			input["working_directory"] = c.abs(d)
		}
	}
	t := c.describe(name, spec, "", agentInput, input)
	if _, ok := agentInput["working_directory"]; !ok && spec.role == roleShell {
		t.added["working_directory"] = true
	}
	return t
}

// errorText is an AfterTool error: a string, or an object's message.
func errorText(v any) string {
	switch e := v.(type) {
	case string:
		return e
	case map[string]any:
		if s := str(e, "message"); s != "" {
			return s
		}
		b, _ := json.Marshal(e)
		return string(b)
	}
	return ""
}

func answerGemini(r *Request, v *Verdict, o Options) Answer {
	out := map[string]any{}
	hso := map[string]any{"hookEventName": r.Event}
	switch r.Kind {
	case Tool:
		switch v.Permission {
		case event.Deny:
			out["decision"] = "deny"
			out["reason"] = v.Reason
		case event.Ask:
			out["decision"] = "ask"
			out["reason"] = orElse(v.UserMessage, "A hook asks for confirmation.")
		case event.Allow:
			if o.Approve {
				out["decision"] = "allow"
				if v.UserMessage != "" {
					out["reason"] = v.UserMessage
				}
			}
		}
		if in := r.AgentInput(v.UpdatedInput); in != nil && v.Permission != event.Deny {
			hso["tool_input"] = in
		}
	case PostTool:
		if v.Context != "" {
			hso["additionalContext"] = v.Context
		}
	case Prompt:
		if v.PromptBlocked {
			out["decision"] = "deny"
			out["reason"] = orElse(v.PromptMessage, "Submission blocked by hook")
		}
	case Stop:
		if v.Followup != "" {
			out["decision"] = "deny"
			out["reason"] = v.Followup
		}
	case SessionStart:
		if v.Context != "" {
			hso["additionalContext"] = v.Context
		}
	case Compact:
		if v.Notice != "" {
			out["systemMessage"] = v.Notice
		}
	}
	if len(hso) > 1 {
		out["hookSpecificOutput"] = hso
	}
	return Answer{Stdout: jsonLine(out)}
}
