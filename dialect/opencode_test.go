package dialect

import (
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

func TestOpenCodeParse(t *testing.T) {
	runParseCases(t, OpenCode, []parseCase{{
		name:    "tool.execute.before bash",
		payload: `{"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"o1","callID":"k1"},"output":{"args":{"command":"git push","timeout":5}},"directory":"/repo"}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		fields: map[event.Step]map[string]string{
			event.PreToolUse:           {"tool_name": `"Shell"`, "tool_use_id": `"k1"`, "conversation_id": `"o1"`, "tool_input": `{"command":"git push","timeout":5,"working_directory":"/repo"}`},
			event.BeforeShellExecution: {"command": `"git push"`, "cwd": `"/repo"`},
		},
	}, {
		name:    "tool.execute.before read: camelCase arguments are snake_cased",
		payload: `{"hook":"tool.execute.before","input":{"tool":"read","sessionID":"o1","callID":"k1"},"output":{"args":{"filePath":"/repo/.env","offset":2}},"directory":"/repo"}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeReadFile},
		fields: map[event.Step]map[string]string{
			event.PreToolUse:     {"tool_name": `"Read"`, "tool_input": `{"file_path":"/repo/.env","offset":2}`},
			event.BeforeReadFile: {"file_path": `"/repo/.env"`},
		},
	}, {
		name:    "tool.execute.after edit adds afterFileEdit",
		payload: `{"hook":"tool.execute.after","input":{"tool":"edit","sessionID":"o1","callID":"k1","args":{"filePath":"/repo/a","oldString":"x","newString":"y"}},"output":{"title":"a","output":"done","metadata":{}},"directory":"/repo"}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		fields: map[event.Step]map[string]string{
			event.PostToolUse:   {"tool_name": `"Write"`, "tool_output": `"\"done\""`},
			event.AfterFileEdit: {"file_path": `"/repo/a"`, "edits": `[{"old_string":"x","new_string":"y"}]`},
		},
	}, {
		name:    "tool.execute.after multiedit with camelCase edits",
		payload: `{"hook":"tool.execute.after","input":{"tool":"multiedit","args":{"filePath":"/repo/a","edits":[{"oldString":"1","newString":"2"}]}},"output":{"output":""}}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		fields:  map[event.Step]map[string]string{event.AfterFileEdit: {"edits": `[{"old_string":"1","new_string":"2"}]`}},
	}, {
		name:    "tool.execute.after bash",
		payload: `{"hook":"tool.execute.after","input":{"tool":"bash","args":{"command":"ls"}},"output":{"output":"a\nb"}}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterShellExecution},
		fields:  map[event.Step]map[string]string{event.AfterShellExecution: {"output": `"a\nb"`, "command": `"ls"`}},
	}, {
		name:    "chat.message is beforeSubmitPrompt with the text parts",
		payload: `{"hook":"chat.message","input":{"sessionID":"o1"},"output":{"message":{},"parts":[{"type":"text","text":"fix"},{"type":"file","url":"x"},{"type":"text","text":"it"}]}}`,
		kind:    Prompt,
		steps:   []event.Step{event.BeforeSubmitPrompt},
		fields:  map[event.Step]map[string]string{event.BeforeSubmitPrompt: {"prompt": `"fix\nit"`, "conversation_id": `"o1"`}},
	}, {
		name:    "session.created is sessionStart",
		payload: `{"hook":"event","event":{"type":"session.created","properties":{"info":{"id":"o1"}}}}`,
		kind:    SessionStart,
		steps:   []event.Step{event.SessionStart},
		fields:  map[event.Step]map[string]string{event.SessionStart: {"session_id": `"o1"`}},
	}, {
		name:    "session.idle is stop",
		payload: `{"event":{"type":"session.idle","properties":{"sessionID":"o1"}}}`,
		kind:    Stop,
		steps:   []event.Step{event.Stop},
		fields:  map[event.Step]map[string]string{event.Stop: {"conversation_id": `"o1"`}},
	}, {
		name:    "session.deleted is sessionEnd",
		payload: `{"hook":"event","event":{"type":"session.deleted","properties":{"info":{"id":"o1"}}}}`,
		kind:    SessionEnd,
		steps:   []event.Step{event.SessionEnd},
	}, {
		name:    "permission.ask has no counterpart",
		payload: `{"hook":"permission.ask","input":{},"output":{"status":"ask"}}`,
		kind:    None,
		steps:   []event.Step{},
	}, {
		name:    "other bus events have no counterpart",
		payload: `{"hook":"event","event":{"type":"file.edited","properties":{}}}`,
		kind:    None,
		steps:   []event.Step{},
	}})
}

func TestOpenCodeParseErrors(t *testing.T) {
	runErrorCases(t, OpenCode, []errorCase{
		{name: "not JSON", payload: `x`, contains: "not a JSON object"},
		{name: "no hook", payload: `{"input":{}}`, contains: `"hook" is missing`},
		{name: "before without a tool", payload: `{"hook":"tool.execute.before","input":{},"output":{"args":{}}}`, contains: `"input.tool" is missing`, gating: true},
		{name: "input not an object", payload: `{"hook":"tool.execute.before","input":"bash"}`, contains: `"input" must be a JSON object`, gating: true},
		{name: "after without a tool", payload: `{"hook":"tool.execute.after","input":{}}`, contains: `"input.tool" is missing`},
	})
}

const opencodeRead = `{"hook":"tool.execute.before","input":{"tool":"read","sessionID":"o1","callID":"k1"},"output":{"args":{"filePath":"/repo/a","limit":5}},"directory":"/repo"}`

func TestOpenCodeAnswer(t *testing.T) {
	runAnswerCases(t, OpenCode, []answerCase{{
		name:    "deny: an error to throw, exit 2, the reason on stderr",
		payload: opencodeRead,
		verdict: deny("File reading was blocked"),
		stdout:  `{"error":"File reading was blocked"}`,
		stderr:  "File reading was blocked",
		code:    2,
	}, {
		name:    "ask is a deny",
		payload: opencodeRead,
		verdict: Verdict{Permission: event.Ask},
		stdout:  `{"error":"A hook asks for the user's confirmation before this action, and OpenCode hooks cannot ask for it, so the action was not run. Ask the user to confirm before trying again."}`,
		stderr:  "OpenCode hooks cannot ask",
		code:    2,
	}, {
		name:    "an allow cannot approve from tool.execute.before",
		payload: opencodeRead,
		verdict: Verdict{Permission: event.Allow},
		approve: true,
	}, {
		name:    "a rewrite comes back in OpenCode's argument names",
		payload: opencodeRead,
		verdict: Verdict{UpdatedInput: map[string]any{"file_path": "/repo/b", "max_bytes": 10}},
		stdout:  `{"args":{"filePath":"/repo/b","limit":5,"maxBytes":10}}`,
	}, {
		name:    "after: context",
		payload: `{"hook":"tool.execute.after","input":{"tool":"bash","args":{}},"output":{}}`,
		verdict: Verdict{Context: "note"},
		stdout:  `{"context":"note"}`,
	}, {
		name:    "a blocked message",
		payload: `{"hook":"chat.message","input":{},"output":{"parts":[]}}`,
		verdict: Verdict{PromptBlocked: true, PromptMessage: "no"},
		stdout:  `{"error":"no"}`,
		stderr:  "no",
		code:    2,
	}, {
		name:    "a follow-up when the session goes idle",
		payload: `{"hook":"event","event":{"type":"session.idle","properties":{"sessionID":"o1"}}}`,
		verdict: Verdict{Followup: "next"},
		stdout:  `{"followup":"next"}`,
	}, {
		name:    "session.created context",
		payload: `{"hook":"event","event":{"type":"session.created","properties":{"info":{"id":"o1"}}}}`,
		verdict: Verdict{Context: "c"},
		stdout:  `{"context":"c"}`,
	}, {
		name:    "no counterpart: empty, exit 0",
		payload: `{"hook":"permission.ask"}`,
	}})
}

func TestOpenCodeFail(t *testing.T) {
	// A before-hook that fails aborts the tool in OpenCode: fail-closed.
	_, err := OpenCode.Parse([]byte(`{"hook":"tool.execute.before","input":{}}`), "")
	a := OpenCode.Fail(err)
	checkAnswer(t, a, `{"error":"agenthooks: OpenCode tool.execute.before payload: field \"input.tool\" is missing or empty; OpenCode passes the tool id there"}`, `"input.tool" is missing`, 2)
	// After-hooks fail open.
	_, err = OpenCode.Parse([]byte(`{"hook":"tool.execute.after","input":{}}`), "")
	checkAnswer(t, OpenCode.Fail(err), "", `"input.tool" is missing`, 1)
	// A payload too broken to name its hook cannot be called gating.
	_, err = OpenCode.Parse([]byte(`[`), "")
	checkAnswer(t, OpenCode.Fail(err), "", "not a JSON object", 1)
	// Unless the adapter named it on the command line, as it does.
	_, err = OpenCode.Parse([]byte(`[`), "tool.execute.before")
	a = OpenCode.Fail(err)
	if a.Code != 2 || !strings.Contains(a.Stderr, "tool.execute.before payload: not a JSON object") {
		t.Errorf("Fail = %+v, want exit 2 naming the hook", a)
	}
}

func TestSnakeCamel(t *testing.T) {
	for _, tc := range []struct{ camel, snake string }{
		{"filePath", "file_path"}, {"oldString", "old_string"}, {"replaceAll", "replace_all"}, {"command", "command"},
	} {
		if got := SnakeCase(tc.camel); got != tc.snake {
			t.Errorf("SnakeCase(%q) = %q, want %q", tc.camel, got, tc.snake)
		}
		if got := camel(tc.snake); got != tc.camel {
			t.Errorf("camel(%q) = %q, want %q", tc.snake, got, tc.camel)
		}
	}
}
