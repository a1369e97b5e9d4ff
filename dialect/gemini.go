package dialect

import "github.com/agenthooks/agenthooks/internal/jsonscan"

// Gemini is Gemini CLI's dialect: `agenthooks run --from gemini` as a
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
var Gemini = &Dialect{
	Name:           "gemini",
	Title:          "Gemini CLI",
	ProjectDirVars: []string{"GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"},
	parse:          geminiShaped.parse,
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

var geminiEvents = map[string]Kind{
	"BeforeTool": Tool, "AfterTool": PostTool, "BeforeAgent": Prompt, "AfterAgent": Stop,
	"SessionStart": SessionStart, "SessionEnd": SessionEnd, "PreCompress": Compact,
}

// geminiShaped: Gemini CLI's payloads are Claude's without a turn id or
// model; an AfterTool whose response holds an error is a failure.
var geminiShaped = &claudeShape{agent: "Gemini CLI", events: geminiEvents,
	tool: func(c common, f *fields, r *Request) {
		t := geminiTool(c, f)
		if f.err != nil {
			return
		}
		r.tool = t
		if r.Kind == Tool {
			r.Calls = c.preCalls(t)
			return
		}
		if msg := errorText(f.obj("tool_response")["error"]); msg != "" {
			r.Kind, r.Calls = ToolFailure, []Call{c.failureCall(t, msg, false, 0)}
			return
		}
		raw := f.raw("tool_response")
		r.Calls = c.postCalls(t, raw, resultText(raw), 0)
	}}

// geminiTool reads tool_name, tool_input and, for MCP tools, mcp_context,
// which names the server and the tool as the server calls it.
func geminiTool(c common, f *fields) *toolCall {
	name := f.need("tool_name")
	agentInput := f.needObj("tool_input")
	mcp := f.obj("mcp_context")
	if server, tool := str(mcp, "server_name"), str(mcp, "tool_name"); server != "" || tool != "" {
		return mcpTool(name, "", server, orElse(tool, name), agentInput, clone(agentInput))
	}
	spec := specOf(geminiTools, name)
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
	if e, ok := v.(string); ok {
		return e
	}
	if e, ok := jsonscan.AsObject(v); ok {
		if s := str(e, "message"); s != "" {
			return s
		}
		b, _ := encode(e)
		return string(b)
	}
	return ""
}

func answerGemini(r *Request, v *Verdict, o Options) Answer {
	out := map[string]any{}
	hso := map[string]any{"hookEventName": r.Event}
	switch r.Kind {
	case Tool:
		decide(out, "decision", "reason", v, o)
		if in := r.rewrite(v); in != nil {
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
