package gemini

import (
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agenttest"
	"github.com/agenthooks/agenthooks/event"
)

const geminiCommon = `"session_id":"g1","transcript_path":"/t.json","cwd":"/repo","timestamp":"2026-08-21T10:00:00Z"`

func TestGeminiParse(t *testing.T) {
	agenttest.RunParseCases(t, Dialect, []agenttest.ParseCase{{
		Name:    "BeforeTool run_shell_command",
		Payload: `{` + geminiCommon + `,"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git push","dir_path":"sub"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		Fields: map[event.Step]map[string]string{
			event.PreToolUse:           {"tool_name": `"Shell"`, "tool_input": `{"command":"git push","dir_path":"sub","working_directory":"/repo/sub"}`, "conversation_id": `"g1"`},
			event.BeforeShellExecution: {"command": `"git push"`, "cwd": `"/repo"`},
		},
	}, {
		Name:    "BeforeTool read_file with the older absolute_path key",
		Payload: `{` + geminiCommon + `,"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"absolute_path":"/repo/.env"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeReadFile},
		Fields: map[event.Step]map[string]string{
			event.PreToolUse:     {"tool_name": `"Read"`},
			event.BeforeReadFile: {"file_path": `"/repo/.env"`},
		},
	}, {
		Name:    "BeforeTool of an MCP tool names it from mcp_context",
		Payload: `{` + geminiCommon + `,"hook_event_name":"BeforeTool","tool_name":"create_issue","tool_input":{"t":1},"mcp_context":{"server_name":"gh","tool_name":"create_issue","url":"https://mcp"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeMCPExecution},
		Fields: map[event.Step]map[string]string{
			event.PreToolUse:         {"tool_name": `"MCP:create_issue"`},
			event.BeforeMCPExecution: {"tool_name": `"create_issue"`, "server": `"gh"`, "tool_input": `"{\"t\":1}"`},
		},
	}, {
		Name:    "replace is Write",
		Payload: `{` + geminiCommon + `,"hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"/repo/a","old_string":"a","new_string":"b"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse},
		Fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Write"`}},
	}, {
		Name:    "search_file_content is Grep",
		Payload: `{` + geminiCommon + `,"hook_event_name":"BeforeTool","tool_name":"search_file_content","tool_input":{"pattern":"x"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse},
		Fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Grep"`}},
	}, {
		Name:    "AfterTool write_file adds afterFileEdit",
		Payload: `{` + geminiCommon + `,"hook_event_name":"AfterTool","tool_name":"write_file","tool_input":{"file_path":"/repo/n.txt","content":"new"},"tool_response":{"llmContent":"ok","returnDisplay":"ok"}}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		Fields: map[event.Step]map[string]string{
			event.PostToolUse:   {"tool_name": `"Write"`, "tool_output": `"{\"llmContent\":\"ok\",\"returnDisplay\":\"ok\"}"`},
			event.AfterFileEdit: {"file_path": `"/repo/n.txt"`, "edits": `[{"old_string":"","new_string":"new"}]`},
		},
	}, {
		Name:    "AfterTool run_shell_command takes llmContent as the output",
		Payload: `{` + geminiCommon + `,"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_response":{"llmContent":"a b","returnDisplay":"a b"}}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterShellExecution},
		Fields:  map[event.Step]map[string]string{event.AfterShellExecution: {"output": `"a b"`, "command": `"ls"`}},
	}, {
		Name:    "AfterTool with an error is postToolUseFailure",
		Payload: `{` + geminiCommon + `,"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"x"},"tool_response":{"llmContent":"","error":{"message":"not found"}}}`,
		Kind:    agent.ToolFailure,
		Steps:   []event.Step{event.PostToolUseFailure},
		Fields:  map[event.Step]map[string]string{event.PostToolUseFailure: {"error_message": `"not found"`, "tool_name": `"Shell"`}},
	}, {
		Name:    "BeforeAgent is beforeSubmitPrompt",
		Payload: `{` + geminiCommon + `,"hook_event_name":"BeforeAgent","prompt":"hello"}`,
		Kind:    agent.Prompt,
		Steps:   []event.Step{event.BeforeSubmitPrompt},
		Fields:  map[event.Step]map[string]string{event.BeforeSubmitPrompt: {"prompt": `"hello"`}},
	}, {
		Name:    "AfterAgent is stop",
		Payload: `{` + geminiCommon + `,"hook_event_name":"AfterAgent","prompt":"p","prompt_response":"r","stop_hook_active":false}`,
		Kind:    agent.Stop,
		Steps:   []event.Step{event.Stop},
		Fields:  map[event.Step]map[string]string{event.Stop: {"loop_count": `0`}},
	}, {
		Name:    "SessionStart",
		Payload: `{` + geminiCommon + `,"hook_event_name":"SessionStart","source":"startup"}`,
		Kind:    agent.SessionStart,
		Steps:   []event.Step{event.SessionStart},
		Fields:  map[event.Step]map[string]string{event.SessionStart: {"session_id": `"g1"`, "source": `"startup"`}},
	}, {
		Name:    "SessionEnd",
		Payload: `{` + geminiCommon + `,"hook_event_name":"SessionEnd","reason":"exit"}`,
		Kind:    agent.SessionEnd,
		Steps:   []event.Step{event.SessionEnd},
		Fields:  map[event.Step]map[string]string{event.SessionEnd: {"reason": `"user_close"`}},
	}, {
		Name:    "PreCompress is preCompact",
		Payload: `{` + geminiCommon + `,"hook_event_name":"PreCompress","trigger":"auto"}`,
		Kind:    agent.Compact,
		Steps:   []event.Step{event.PreCompact},
		Fields:  map[event.Step]map[string]string{event.PreCompact: {"trigger": `"auto"`}},
	}, {
		Name:    "BeforeModel has no counterpart",
		Payload: `{` + geminiCommon + `,"hook_event_name":"BeforeModel","llm_request":{}}`,
		Kind:    agent.None,
		Steps:   []event.Step{},
	}})
}

func TestGeminiParseErrors(t *testing.T) {
	agenttest.RunErrorCases(t, Dialect, []agenttest.ErrorCase{
		{Name: "not JSON", Payload: `{`, Contains: "not a JSON object"},
		{Name: "no event", Payload: `{"session_id":"g"}`, Contains: `"hook_event_name" is missing`},
		{Name: "BeforeTool without tool_input", Payload: `{"hook_event_name":"BeforeTool","tool_name":"read_file"}`, Contains: `"tool_input" is missing`, Gating: true},
		{Name: "mcp_context not an object", Payload: `{"hook_event_name":"BeforeTool","tool_name":"x","tool_input":{},"mcp_context":"gh"}`, Contains: `"mcp_context" must be a JSON object`, Gating: true},
	})
}

const geminiShell = `{` + geminiCommon + `,"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git push"}}`

func TestGeminiAnswer(t *testing.T) {
	agenttest.RunAnswerCases(t, Dialect, []agenttest.AnswerCase{{
		Name:    "deny",
		Payload: geminiShell,
		Verdict: agenttest.Deny("rejected"),
		Stdout:  `{"decision":"deny","reason":"rejected"}`,
	}, {
		Name:    "ask is Gemini's ask",
		Payload: geminiShell,
		Verdict: agent.Verdict{Permission: event.Ask, UserMessage: "sure?"},
		Stdout:  `{"decision":"ask","reason":"sure?"}`,
	}, {
		Name:    "no objection is still one JSON object",
		Payload: geminiShell,
		Verdict: agent.Verdict{Permission: event.Allow},
		Stdout:  `{}`,
	}, {
		Name:    "approve",
		Payload: geminiShell,
		Verdict: agent.Verdict{Permission: event.Allow},
		Approve: true,
		Stdout:  `{"decision":"allow"}`,
	}, {
		Name:    "a rewrite is hookSpecificOutput.tool_input, without the added keys",
		Payload: geminiShell,
		Verdict: agent.Verdict{UpdatedInput: map[string]any{"command": "git status", "working_directory": "/repo"}},
		Stdout:  `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"git status"}}}`,
	}, {
		Name:    "AfterTool context",
		Payload: `{` + geminiCommon + `,"hook_event_name":"AfterTool","tool_name":"x","tool_input":{},"tool_response":{}}`,
		Verdict: agent.Verdict{Context: "note"},
		Stdout:  `{"hookSpecificOutput":{"additionalContext":"note","hookEventName":"AfterTool"}}`,
	}, {
		Name:    "a blocked prompt",
		Payload: `{` + geminiCommon + `,"hook_event_name":"BeforeAgent","prompt":"x"}`,
		Verdict: agent.Verdict{PromptBlocked: true, PromptMessage: "no"},
		Stdout:  `{"decision":"deny","reason":"no"}`,
	}, {
		Name:    "a follow-up is AfterAgent's deny, retried as the prompt",
		Payload: `{` + geminiCommon + `,"hook_event_name":"AfterAgent","stop_hook_active":false}`,
		Verdict: agent.Verdict{Followup: "again"},
		Stdout:  `{"decision":"deny","reason":"again"}`,
	}, {
		Name:    "SessionStart context; no env file",
		Payload: `{` + geminiCommon + `,"hook_event_name":"SessionStart","source":"startup"}`,
		Verdict: agent.Verdict{Context: "ctx", Env: map[string]string{"A": "1"}},
		Stdout:  `{"hookSpecificOutput":{"additionalContext":"ctx","hookEventName":"SessionStart"}}`,
	}, {
		Name:    "PreCompress notice",
		Payload: `{` + geminiCommon + `,"hook_event_name":"PreCompress","trigger":"auto"}`,
		Verdict: agent.Verdict{Notice: "n"},
		Stdout:  `{"systemMessage":"n"}`,
	}, {
		Name:    "no counterpart",
		Payload: `{` + geminiCommon + `,"hook_event_name":"Notification"}`,
		Stdout:  `{}`,
	}})
}

func TestGeminiFail(t *testing.T) {
	_, err := Dialect.Parse([]byte(`{"hook_event_name":"BeforeTool"}`), "")
	// Exit 1 with text on stderr and nothing on stdout: Gemini allows
	// with a warning.
	agenttest.CheckAnswer(t, Dialect.Fail(err), "", `"tool_name" is missing`, 1)
}
