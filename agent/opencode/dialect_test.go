package opencode

import (
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agenttest"
	"github.com/agenthooks/agenthooks/event"
)

func TestOpenCodeParse(t *testing.T) {
	agenttest.RunParseCases(t, Dialect, []agenttest.ParseCase{{
		Name:    "tool.execute.before bash",
		Payload: `{"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"o1","callID":"k1"},"output":{"args":{"command":"git push","timeout":5}},"directory":"/repo"}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		Fields: map[event.Step]map[string]string{
			event.PreToolUse:           {"tool_name": `"Shell"`, "tool_use_id": `"k1"`, "conversation_id": `"o1"`, "tool_input": `{"command":"git push","timeout":5,"working_directory":"/repo"}`},
			event.BeforeShellExecution: {"command": `"git push"`, "cwd": `"/repo"`},
		},
	}, {
		Name:    "tool.execute.before read: camelCase arguments are snake_cased",
		Payload: `{"hook":"tool.execute.before","input":{"tool":"read","sessionID":"o1","callID":"k1"},"output":{"args":{"filePath":"/repo/.env","offset":2}},"directory":"/repo"}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeReadFile},
		Fields: map[event.Step]map[string]string{
			event.PreToolUse:     {"tool_name": `"Read"`, "tool_input": `{"file_path":"/repo/.env","offset":2}`},
			event.BeforeReadFile: {"file_path": `"/repo/.env"`},
		},
	}, {
		Name:    "tool.execute.after edit adds afterFileEdit",
		Payload: `{"hook":"tool.execute.after","input":{"tool":"edit","sessionID":"o1","callID":"k1","args":{"filePath":"/repo/a","oldString":"x","newString":"y"}},"output":{"title":"a","output":"done","metadata":{}},"directory":"/repo"}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		Fields: map[event.Step]map[string]string{
			event.PostToolUse:   {"tool_name": `"Write"`, "tool_output": `"\"done\""`},
			event.AfterFileEdit: {"file_path": `"/repo/a"`, "edits": `[{"old_string":"x","new_string":"y"}]`},
		},
	}, {
		Name:    "tool.execute.after multiedit with camelCase edits",
		Payload: `{"hook":"tool.execute.after","input":{"tool":"multiedit","args":{"filePath":"/repo/a","edits":[{"oldString":"1","newString":"2"}]}},"output":{"output":""}}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		Fields:  map[event.Step]map[string]string{event.AfterFileEdit: {"edits": `[{"old_string":"1","new_string":"2"}]`}},
	}, {
		Name:    "tool.execute.after bash",
		Payload: `{"hook":"tool.execute.after","input":{"tool":"bash","args":{"command":"ls"}},"output":{"output":"a\nb"}}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterShellExecution},
		Fields:  map[event.Step]map[string]string{event.AfterShellExecution: {"output": `"a\nb"`, "command": `"ls"`}},
	}, {
		Name:    "chat.message is beforeSubmitPrompt with the text parts",
		Payload: `{"hook":"chat.message","input":{"sessionID":"o1"},"output":{"message":{},"parts":[{"type":"text","text":"fix"},{"type":"file","url":"x"},{"type":"text","text":"it"}]}}`,
		Kind:    agent.Prompt,
		Steps:   []event.Step{event.BeforeSubmitPrompt},
		Fields:  map[event.Step]map[string]string{event.BeforeSubmitPrompt: {"prompt": `"fix\nit"`, "conversation_id": `"o1"`}},
	}, {
		Name:    "session.created is sessionStart",
		Payload: `{"hook":"event","event":{"type":"session.created","properties":{"info":{"id":"o1"}}}}`,
		Kind:    agent.SessionStart,
		Steps:   []event.Step{event.SessionStart},
		Fields:  map[event.Step]map[string]string{event.SessionStart: {"session_id": `"o1"`}},
	}, {
		Name:    "session.idle is stop",
		Payload: `{"event":{"type":"session.idle","properties":{"sessionID":"o1"}}}`,
		Kind:    agent.Stop,
		Steps:   []event.Step{event.Stop},
		Fields:  map[event.Step]map[string]string{event.Stop: {"conversation_id": `"o1"`}},
	}, {
		Name:    "session.deleted is sessionEnd",
		Payload: `{"hook":"event","event":{"type":"session.deleted","properties":{"info":{"id":"o1"}}}}`,
		Kind:    agent.SessionEnd,
		Steps:   []event.Step{event.SessionEnd},
	}, {
		Name:    "permission.ask has no counterpart",
		Payload: `{"hook":"permission.ask","input":{},"output":{"status":"ask"}}`,
		Kind:    agent.None,
		Steps:   []event.Step{},
	}, {
		Name:    "other bus events have no counterpart",
		Payload: `{"hook":"event","event":{"type":"file.edited","properties":{}}}`,
		Kind:    agent.None,
		Steps:   []event.Step{},
	}})
}

func TestOpenCodeParseErrors(t *testing.T) {
	agenttest.RunErrorCases(t, Dialect, []agenttest.ErrorCase{
		{Name: "not JSON", Payload: `x`, Contains: "not a JSON object"},
		{Name: "no hook", Payload: `{"input":{}}`, Contains: `"hook" is missing`},
		{Name: "before without a tool", Payload: `{"hook":"tool.execute.before","input":{},"output":{"args":{}}}`, Contains: `"input.tool" is missing`, Gating: true},
		{Name: "input not an object", Payload: `{"hook":"tool.execute.before","input":"bash"}`, Contains: `"input" must be a JSON object`, Gating: true},
		{Name: "after without a tool", Payload: `{"hook":"tool.execute.after","input":{}}`, Contains: `"input.tool" is missing`},
		{Name: "args a string", Payload: `{"hook":"tool.execute.before","input":{"tool":"bash"},"output":{"args":"git push"}}`, Contains: `"output.args" must be a JSON object`, Gating: true},
		{Name: "args a list", Payload: `{"hook":"tool.execute.before","input":{"tool":"bash"},"output":{"args":["git push"]}}`, Contains: `"output.args" must be a JSON object`, Gating: true},
	})
}

const opencodeRead = `{"hook":"tool.execute.before","input":{"tool":"read","sessionID":"o1","callID":"k1"},"output":{"args":{"filePath":"/repo/a","limit":5}},"directory":"/repo"}`

func TestOpenCodeAnswer(t *testing.T) {
	agenttest.RunAnswerCases(t, Dialect, []agenttest.AnswerCase{{
		Name:    "deny: an error to throw, exit 2, the reason on stderr",
		Payload: opencodeRead,
		Verdict: agenttest.Deny("File reading was blocked"),
		Stdout:  `{"error":"File reading was blocked"}`,
		Stderr:  "File reading was blocked",
		Code:    2,
	}, {
		Name:    "ask is a deny",
		Payload: opencodeRead,
		Verdict: agent.Verdict{Permission: event.Ask},
		Stdout:  `{"error":"A hook asks for the user's confirmation before this action, and OpenCode hooks cannot ask for it, so the action was not run. Ask the user to confirm before trying again."}`,
		Stderr:  "OpenCode hooks cannot ask",
		Code:    2,
	}, {
		Name:    "an allow cannot approve from tool.execute.before",
		Payload: opencodeRead,
		Verdict: agent.Verdict{Permission: event.Allow},
		Approve: true,
	}, {
		Name:    "a rewrite comes back in OpenCode's argument names",
		Payload: opencodeRead,
		Verdict: agent.Verdict{UpdatedInput: map[string]any{"file_path": "/repo/b", "max_bytes": 10}},
		Stdout:  `{"args":{"filePath":"/repo/b","limit":5,"maxBytes":10}}`,
	}, {
		Name:    "after: context",
		Payload: `{"hook":"tool.execute.after","input":{"tool":"bash","args":{}},"output":{}}`,
		Verdict: agent.Verdict{Context: "note"},
		Stdout:  `{"context":"note"}`,
	}, {
		Name:    "a blocked message",
		Payload: `{"hook":"chat.message","input":{},"output":{"parts":[]}}`,
		Verdict: agent.Verdict{PromptBlocked: true, PromptMessage: "no"},
		Stdout:  `{"error":"no"}`,
		Stderr:  "no",
		Code:    2,
	}, {
		Name:    "a follow-up when the session goes idle",
		Payload: `{"hook":"event","event":{"type":"session.idle","properties":{"sessionID":"o1"}}}`,
		Verdict: agent.Verdict{Followup: "next"},
		Stdout:  `{"followup":"next"}`,
	}, {
		Name:    "session.created context",
		Payload: `{"hook":"event","event":{"type":"session.created","properties":{"info":{"id":"o1"}}}}`,
		Verdict: agent.Verdict{Context: "c"},
		Stdout:  `{"context":"c"}`,
	}, {
		Name:    "no counterpart: empty, exit 0",
		Payload: `{"hook":"permission.ask"}`,
	}})
}

func TestOpenCodeFail(t *testing.T) {
	// A before-hook that fails aborts the tool in OpenCode: fail-closed.
	_, err := Dialect.Parse([]byte(`{"hook":"tool.execute.before","input":{}}`), "")
	a := Dialect.Fail(err)
	agenttest.CheckAnswer(t, a, `{"error":"agenthooks: OpenCode tool.execute.before payload: field \"input.tool\" is missing or empty; OpenCode passes the tool id there"}`, `"input.tool" is missing`, 2)
	// After-hooks fail open.
	_, err = Dialect.Parse([]byte(`{"hook":"tool.execute.after","input":{}}`), "")
	agenttest.CheckAnswer(t, Dialect.Fail(err), "", `"input.tool" is missing`, 1)
	// A payload too broken to name its hook cannot be called gating.
	_, err = Dialect.Parse([]byte(`[`), "")
	agenttest.CheckAnswer(t, Dialect.Fail(err), "", "not a JSON object", 1)
	// Unless the adapter named it on the command line, as it does.
	_, err = Dialect.Parse([]byte(`[`), "tool.execute.before")
	a = Dialect.Fail(err)
	if a.Code != 2 || !strings.Contains(a.Stderr, "tool.execute.before payload: not a JSON object") {
		t.Errorf("Fail = %+v, want exit 2 naming the hook", a)
	}
}

func TestSnakeCamel(t *testing.T) {
	for _, tc := range []struct{ camel, snake string }{
		{"filePath", "file_path"}, {"oldString", "old_string"}, {"replaceAll", "replace_all"}, {"command", "command"},
	} {
		if got := agent.SnakeCase(tc.camel); got != tc.snake {
			t.Errorf("SnakeCase(%q) = %q, want %q", tc.camel, got, tc.snake)
		}
		if got := camel(tc.snake); got != tc.camel {
			t.Errorf("camel(%q) = %q, want %q", tc.snake, got, tc.camel)
		}
	}
}
