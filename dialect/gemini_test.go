package dialect

import (
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

const geminiCommon = `"session_id":"g1","transcript_path":"/t.json","cwd":"/repo","timestamp":"2026-08-21T10:00:00Z"`

func TestGeminiParse(t *testing.T) {
	runParseCases(t, Gemini, []parseCase{{
		name:    "BeforeTool run_shell_command",
		payload: `{` + geminiCommon + `,"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git push","dir_path":"sub"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		fields: map[event.Step]map[string]string{
			event.PreToolUse:           {"tool_name": `"Shell"`, "tool_input": `{"command":"git push","dir_path":"sub","working_directory":"/repo/sub"}`, "conversation_id": `"g1"`},
			event.BeforeShellExecution: {"command": `"git push"`, "cwd": `"/repo"`},
		},
	}, {
		name:    "BeforeTool read_file with the older absolute_path key",
		payload: `{` + geminiCommon + `,"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"absolute_path":"/repo/.env"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeReadFile},
		fields: map[event.Step]map[string]string{
			event.PreToolUse:     {"tool_name": `"Read"`},
			event.BeforeReadFile: {"file_path": `"/repo/.env"`},
		},
	}, {
		name:    "BeforeTool of an MCP tool names it from mcp_context",
		payload: `{` + geminiCommon + `,"hook_event_name":"BeforeTool","tool_name":"create_issue","tool_input":{"t":1},"mcp_context":{"server_name":"gh","tool_name":"create_issue","url":"https://mcp"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeMCPExecution},
		fields: map[event.Step]map[string]string{
			event.PreToolUse:         {"tool_name": `"MCP:create_issue"`},
			event.BeforeMCPExecution: {"tool_name": `"create_issue"`, "server": `"gh"`, "tool_input": `"{\"t\":1}"`},
		},
	}, {
		name:    "replace is Write",
		payload: `{` + geminiCommon + `,"hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"/repo/a","old_string":"a","new_string":"b"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse},
		fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Write"`}},
	}, {
		name:    "search_file_content is Grep",
		payload: `{` + geminiCommon + `,"hook_event_name":"BeforeTool","tool_name":"search_file_content","tool_input":{"pattern":"x"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse},
		fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Grep"`}},
	}, {
		name:    "AfterTool write_file adds afterFileEdit",
		payload: `{` + geminiCommon + `,"hook_event_name":"AfterTool","tool_name":"write_file","tool_input":{"file_path":"/repo/n.txt","content":"new"},"tool_response":{"llmContent":"ok","returnDisplay":"ok"}}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		fields: map[event.Step]map[string]string{
			event.PostToolUse:   {"tool_name": `"Write"`, "tool_output": `"{\"llmContent\":\"ok\",\"returnDisplay\":\"ok\"}"`},
			event.AfterFileEdit: {"file_path": `"/repo/n.txt"`, "edits": `[{"old_string":"","new_string":"new"}]`},
		},
	}, {
		name:    "AfterTool run_shell_command takes llmContent as the output",
		payload: `{` + geminiCommon + `,"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_response":{"llmContent":"a b","returnDisplay":"a b"}}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterShellExecution},
		fields:  map[event.Step]map[string]string{event.AfterShellExecution: {"output": `"a b"`, "command": `"ls"`}},
	}, {
		name:    "AfterTool with an error is postToolUseFailure",
		payload: `{` + geminiCommon + `,"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"x"},"tool_response":{"llmContent":"","error":{"message":"not found"}}}`,
		kind:    ToolFailure,
		steps:   []event.Step{event.PostToolUseFailure},
		fields:  map[event.Step]map[string]string{event.PostToolUseFailure: {"error_message": `"not found"`, "tool_name": `"Shell"`}},
	}, {
		name:    "BeforeAgent is beforeSubmitPrompt",
		payload: `{` + geminiCommon + `,"hook_event_name":"BeforeAgent","prompt":"hello"}`,
		kind:    Prompt,
		steps:   []event.Step{event.BeforeSubmitPrompt},
		fields:  map[event.Step]map[string]string{event.BeforeSubmitPrompt: {"prompt": `"hello"`}},
	}, {
		name:    "AfterAgent is stop",
		payload: `{` + geminiCommon + `,"hook_event_name":"AfterAgent","prompt":"p","prompt_response":"r","stop_hook_active":false}`,
		kind:    Stop,
		steps:   []event.Step{event.Stop},
		fields:  map[event.Step]map[string]string{event.Stop: {"loop_count": `0`}},
	}, {
		name:    "SessionStart",
		payload: `{` + geminiCommon + `,"hook_event_name":"SessionStart","source":"startup"}`,
		kind:    SessionStart,
		steps:   []event.Step{event.SessionStart},
		fields:  map[event.Step]map[string]string{event.SessionStart: {"session_id": `"g1"`, "source": `"startup"`}},
	}, {
		name:    "SessionEnd",
		payload: `{` + geminiCommon + `,"hook_event_name":"SessionEnd","reason":"exit"}`,
		kind:    SessionEnd,
		steps:   []event.Step{event.SessionEnd},
		fields:  map[event.Step]map[string]string{event.SessionEnd: {"reason": `"user_close"`}},
	}, {
		name:    "PreCompress is preCompact",
		payload: `{` + geminiCommon + `,"hook_event_name":"PreCompress","trigger":"auto"}`,
		kind:    Compact,
		steps:   []event.Step{event.PreCompact},
		fields:  map[event.Step]map[string]string{event.PreCompact: {"trigger": `"auto"`}},
	}, {
		name:    "BeforeModel has no counterpart",
		payload: `{` + geminiCommon + `,"hook_event_name":"BeforeModel","llm_request":{}}`,
		kind:    None,
		steps:   []event.Step{},
	}})
}

func TestGeminiParseErrors(t *testing.T) {
	runErrorCases(t, Gemini, []errorCase{
		{name: "not JSON", payload: `{`, contains: "not a JSON object"},
		{name: "no event", payload: `{"session_id":"g"}`, contains: `"hook_event_name" is missing`},
		{name: "BeforeTool without tool_input", payload: `{"hook_event_name":"BeforeTool","tool_name":"read_file"}`, contains: `"tool_input" is missing`, gating: true},
		{name: "mcp_context not an object", payload: `{"hook_event_name":"BeforeTool","tool_name":"x","tool_input":{},"mcp_context":"gh"}`, contains: `"mcp_context" must be a JSON object`, gating: true},
	})
}

const geminiShell = `{` + geminiCommon + `,"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git push"}}`

func TestGeminiAnswer(t *testing.T) {
	runAnswerCases(t, Gemini, []answerCase{{
		name:    "deny",
		payload: geminiShell,
		verdict: deny("rejected"),
		stdout:  `{"decision":"deny","reason":"rejected"}`,
	}, {
		name:    "ask is Gemini's ask",
		payload: geminiShell,
		verdict: Verdict{Permission: event.Ask, UserMessage: "sure?"},
		stdout:  `{"decision":"ask","reason":"sure?"}`,
	}, {
		name:    "no objection is still one JSON object",
		payload: geminiShell,
		verdict: Verdict{Permission: event.Allow},
		stdout:  `{}`,
	}, {
		name:    "approve",
		payload: geminiShell,
		verdict: Verdict{Permission: event.Allow},
		approve: true,
		stdout:  `{"decision":"allow"}`,
	}, {
		name:    "a rewrite is hookSpecificOutput.tool_input, without the added keys",
		payload: geminiShell,
		verdict: Verdict{UpdatedInput: map[string]any{"command": "git status", "working_directory": "/repo"}},
		stdout:  `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"git status"}}}`,
	}, {
		name:    "AfterTool context",
		payload: `{` + geminiCommon + `,"hook_event_name":"AfterTool","tool_name":"x","tool_input":{},"tool_response":{}}`,
		verdict: Verdict{Context: "note"},
		stdout:  `{"hookSpecificOutput":{"additionalContext":"note","hookEventName":"AfterTool"}}`,
	}, {
		name:    "a blocked prompt",
		payload: `{` + geminiCommon + `,"hook_event_name":"BeforeAgent","prompt":"x"}`,
		verdict: Verdict{PromptBlocked: true, PromptMessage: "no"},
		stdout:  `{"decision":"deny","reason":"no"}`,
	}, {
		name:    "a follow-up is AfterAgent's deny, retried as the prompt",
		payload: `{` + geminiCommon + `,"hook_event_name":"AfterAgent","stop_hook_active":false}`,
		verdict: Verdict{Followup: "again"},
		stdout:  `{"decision":"deny","reason":"again"}`,
	}, {
		name:    "SessionStart context; no env file",
		payload: `{` + geminiCommon + `,"hook_event_name":"SessionStart","source":"startup"}`,
		verdict: Verdict{Context: "ctx", Env: map[string]string{"A": "1"}},
		stdout:  `{"hookSpecificOutput":{"additionalContext":"ctx","hookEventName":"SessionStart"}}`,
	}, {
		name:    "PreCompress notice",
		payload: `{` + geminiCommon + `,"hook_event_name":"PreCompress","trigger":"auto"}`,
		verdict: Verdict{Notice: "n"},
		stdout:  `{"systemMessage":"n"}`,
	}, {
		name:    "no counterpart",
		payload: `{` + geminiCommon + `,"hook_event_name":"Notification"}`,
		stdout:  `{}`,
	}})
}

func TestGeminiFail(t *testing.T) {
	_, err := Gemini.Parse([]byte(`{"hook_event_name":"BeforeTool"}`), "")
	// Exit 1 with text on stderr and nothing on stdout: Gemini allows
	// with a warning.
	checkAnswer(t, Gemini.Fail(err), "", `"tool_name" is missing`, 1)
}
