package copilot

import (
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agenttest"
	"github.com/agenthooks/agenthooks/event"
)

const copilotCamel = `"sessionId":"cp1","timestamp":1760000000000,"cwd":"/repo"`
const copilotSnake = `"session_id":"cp1","timestamp":"2026-08-21T10:00:00Z","cwd":"/repo"`

func TestCopilotParse(t *testing.T) {
	agenttest.RunParseCases(t, Dialect, []agenttest.ParseCase{{
		Name:    "camelCase preToolUse named on the command line, toolArgs as a JSON string",
		Payload: `{` + copilotCamel + `,"toolName":"bash","toolArgs":"{\"command\":\"git push\",\"description\":\"d\"}"}`,
		Arg:     "preToolUse",
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		Fields: map[event.Step]map[string]string{
			event.PreToolUse:           {"tool_name": `"Shell"`, "conversation_id": `"cp1"`, "tool_input": `{"command":"git push","description":"d","working_directory":"/repo"}`},
			event.BeforeShellExecution: {"command": `"git push"`, "cwd": `"/repo"`},
		},
	}, {
		Name:    "camelCase preToolUse inferred, toolArgs as an object",
		Payload: `{` + copilotCamel + `,"toolName":"view","toolArgs":{"path":"README.md"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeReadFile},
		Fields:  map[event.Step]map[string]string{event.BeforeReadFile: {"file_path": `"/repo/README.md"`}},
	}, {
		Name:    "PascalCase PreToolUse with snake_case fields",
		Payload: `{` + copilotSnake + `,"hook_event_name":"PreToolUse","tool_name":"powershell","tool_input":{"command":"git push"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		Fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Shell"`, "conversation_id": `"cp1"`}},
	}, {
		Name:    "postToolUse of edit adds afterFileEdit",
		Payload: `{` + copilotCamel + `,"toolName":"edit","toolArgs":{"path":"/repo/a","old_str":"x","new_str":"y"},"toolResult":{"resultType":"success","textResultForLlm":"ok"}}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		Fields: map[event.Step]map[string]string{
			event.PostToolUse:   {"tool_name": `"Write"`, "tool_output": `"\"ok\""`},
			event.AfterFileEdit: {"file_path": `"/repo/a"`, "edits": `[{"old_string":"x","new_string":"y"}]`},
		},
	}, {
		Name:    "postToolUse of create",
		Payload: `{` + copilotSnake + `,"hook_event_name":"PostToolUse","tool_name":"create","tool_input":{"path":"/repo/n","file_text":"hi"},"tool_result":{"result_type":"success","text_result_for_llm":"created"}}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		Fields:  map[event.Step]map[string]string{event.AfterFileEdit: {"edits": `[{"old_string":"","new_string":"hi"}]`}, event.PostToolUse: {"tool_output": `"\"created\""`}},
	}, {
		Name:    "postToolUse of bash",
		Payload: `{` + copilotCamel + `,"toolName":"bash","toolArgs":{"command":"ls"},"toolResult":{"resultType":"success","textResultForLlm":"a b"}}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterShellExecution},
		Fields:  map[event.Step]map[string]string{event.AfterShellExecution: {"output": `"a b"`}},
	}, {
		Name:    "postToolUseFailure inferred from error",
		Payload: `{` + copilotCamel + `,"toolName":"bash","toolArgs":{"command":"x"},"error":"boom"}`,
		Kind:    agent.ToolFailure,
		Steps:   []event.Step{event.PostToolUseFailure},
		Fields:  map[event.Step]map[string]string{event.PostToolUseFailure: {"error_message": `"boom"`}},
	}, {
		Name:    "userPromptSubmitted",
		Payload: `{` + copilotCamel + `,"prompt":"hi"}`,
		Kind:    agent.Prompt,
		Steps:   []event.Step{event.BeforeSubmitPrompt},
		Fields:  map[event.Step]map[string]string{event.BeforeSubmitPrompt: {"prompt": `"hi"`}},
	}, {
		Name:    "agentStop: Copilot does not say whether a hook kept it going",
		Payload: `{` + copilotCamel + `,"transcriptPath":"/t","stopReason":"end_turn"}`,
		Kind:    agent.Stop,
		Steps:   []event.Step{event.Stop},
		Fields:  map[event.Step]map[string]string{event.Stop: {"transcript_path": `"/t"`}},
		Absent:  map[event.Step][]string{event.Stop: {"loop_count"}},
	}, {
		Name:    "agentStop not after a stop hook's block: the chain of follow-ups starts over",
		Payload: `{` + copilotCamel + `,"transcriptPath":"/t","stopReason":"end_turn","stop_hook_active":false}`,
		Kind:    agent.Stop,
		Steps:   []event.Step{event.Stop},
		Fields:  map[event.Step]map[string]string{event.Stop: {"loop_count": `0`}},
	}, {
		Name:    "agentStop after a stop hook's block: the engine's count stands",
		Payload: `{` + copilotCamel + `,"transcriptPath":"/t","stopReason":"end_turn","stop_hook_active":true}`,
		Kind:    agent.Stop,
		Steps:   []event.Step{event.Stop},
		Absent:  map[event.Step][]string{event.Stop: {"loop_count"}},
	}, {
		Name:    "PascalCase Stop after a block",
		Payload: `{` + copilotSnake + `,"hook_event_name":"Stop","transcript_path":"/t","stop_reason":"end_turn","stop_hook_active":false}`,
		Kind:    agent.Stop,
		Steps:   []event.Step{event.Stop},
		Fields:  map[event.Step]map[string]string{event.Stop: {"loop_count": `0`}},
	}, {
		Name:    "subagentStop with stop_hook_active false",
		Payload: `{` + copilotCamel + `,"transcriptPath":"/t","agentName":"r","stopReason":"end_turn","stopHookActive":false}`,
		Kind:    agent.SubagentStop,
		Steps:   []event.Step{event.SubagentStop},
		Fields:  map[event.Step]map[string]string{event.SubagentStop: {"loop_count": `0`}},
	}, {
		Name:    "PascalCase Stop",
		Payload: `{` + copilotSnake + `,"hook_event_name":"Stop","transcript_path":"/t","stop_reason":"end_turn"}`,
		Kind:    agent.Stop,
		Steps:   []event.Step{event.Stop},
	}, {
		Name:    "subagentStop",
		Payload: `{` + copilotCamel + `,"transcriptPath":"/t","agentName":"reviewer","stopReason":"end_turn"}`,
		Kind:    agent.SubagentStop,
		Steps:   []event.Step{event.SubagentStop},
		Fields:  map[event.Step]map[string]string{event.SubagentStop: {"subagent_type": `"reviewer"`}},
	}, {
		Name:    "sessionStart",
		Payload: `{` + copilotCamel + `,"source":"new","initialPrompt":"x"}`,
		Kind:    agent.SessionStart,
		Steps:   []event.Step{event.SessionStart},
		Fields:  map[event.Step]map[string]string{event.SessionStart: {"session_id": `"cp1"`, "source": `"new"`}},
	}, {
		Name:    "sessionEnd",
		Payload: `{` + copilotCamel + `,"reason":"user_exit"}`,
		Kind:    agent.SessionEnd,
		Steps:   []event.Step{event.SessionEnd},
		Fields:  map[event.Step]map[string]string{event.SessionEnd: {"reason": `"user_close"`, "final_status": `"user_exit"`}},
	}, {
		Name:    "preCompact",
		Payload: `{` + copilotCamel + `,"transcriptPath":"/t","trigger":"manual","customInstructions":""}`,
		Kind:    agent.Compact,
		Steps:   []event.Step{event.PreCompact},
	}, {
		Name:    "subagentStart has no counterpart (Copilot cannot block it)",
		Payload: `{` + copilotCamel + `,"transcriptPath":"/t","agentName":"reviewer"}`,
		Kind:    agent.None,
		Steps:   []event.Step{},
	}, {
		Name:    "errorOccurred has no counterpart",
		Payload: `{` + copilotCamel + `,"error":{"message":"m","name":"E"},"errorContext":"system","recoverable":true}`,
		Kind:    agent.None,
		Steps:   []event.Step{},
	}, {
		Name:    "notification has no counterpart",
		Payload: `{` + copilotCamel + `,"hook_event_name":"Notification","message":"m","notification_type":"agent_idle"}`,
		Kind:    agent.None,
		Steps:   []event.Step{},
	}})
}

func TestCopilotParseErrors(t *testing.T) {
	agenttest.RunErrorCases(t, Dialect, []agenttest.ErrorCase{
		{Name: "not JSON", Payload: `x`, Contains: "not a JSON object"},
		{Name: "no way to tell the event", Payload: `{` + copilotCamel + `}`, Contains: "does not say which event"},
		{Name: "toolArgs string that is not an object", Payload: `{` + copilotCamel + `,"toolName":"bash","toolArgs":"ls -la"}`, Contains: `"toolArgs" is a string that does not hold a JSON object`, Gating: true},
		{Name: "toolName missing with the event named", Payload: `{` + copilotCamel + `,"toolArgs":{}}`, Arg: "preToolUse", Contains: `"toolName" is missing`, Gating: true},
	})
}

const copilotBash = `{` + copilotCamel + `,"toolName":"bash","toolArgs":{"command":"git push"}}`
const copilotPascalBash = `{` + copilotSnake + `,"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{"command":"git push"}}`

func TestCopilotAnswer(t *testing.T) {
	agenttest.RunAnswerCases(t, Dialect, []agenttest.AnswerCase{{
		Name:    "deny",
		Payload: copilotBash,
		Verdict: agenttest.Deny("no push"),
		Stdout:  `{"permissionDecision":"deny","permissionDecisionReason":"no push"}`,
	}, {
		Name:    "deny, PascalCase: also the VS Code form",
		Payload: copilotPascalBash,
		Verdict: agenttest.Deny("no push"),
		Stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no push"},"permissionDecision":"deny","permissionDecisionReason":"no push"}`,
	}, {
		Name:    "ask",
		Payload: copilotBash,
		Verdict: agent.Verdict{Permission: event.Ask},
		Stdout:  `{"permissionDecision":"ask","permissionDecisionReason":"A hook asks for confirmation."}`,
	}, {
		Name:    "no objection",
		Payload: copilotBash,
		Verdict: agent.Verdict{Permission: event.Allow},
	}, {
		Name:    "approve",
		Payload: copilotBash,
		Verdict: agent.Verdict{Permission: event.Allow, UserMessage: "ok"},
		Approve: true,
		Stdout:  `{"permissionDecision":"allow","permissionDecisionReason":"ok"}`,
	}, {
		Name:    "a rewrite is modifiedArgs",
		Payload: copilotBash,
		Verdict: agent.Verdict{UpdatedInput: map[string]any{"command": "git status", "working_directory": "/repo"}},
		Stdout:  `{"modifiedArgs":{"command":"git status"}}`,
	}, {
		Name:    "a rewrite, PascalCase",
		Payload: copilotPascalBash,
		Verdict: agent.Verdict{UpdatedInput: map[string]any{"command": "git status"}},
		Stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"git status"}},"modifiedArgs":{"command":"git status"}}`,
	}, {
		Name:    "a blocked prompt cannot be stopped: a warning on stderr, exit 2",
		Payload: `{` + copilotCamel + `,"prompt":"x"}`,
		Verdict: agent.Verdict{PromptBlocked: true, PromptMessage: "Submission blocked by hook: no"},
		Stderr:  "Submission blocked by hook: no (GitHub Copilot cannot stop a prompt",
		Code:    2,
	}, {
		Name:    "a follow-up at agentStop",
		Payload: `{` + copilotCamel + `,"stopReason":"end_turn"}`,
		Verdict: agent.Verdict{Followup: "go on"},
		Stdout:  `{"decision":"block","reason":"go on"}`,
	}, {
		Name:    "a follow-up at subagentStop",
		Payload: `{` + copilotCamel + `,"agentName":"r","stopReason":"end_turn"}`,
		Verdict: agent.Verdict{Followup: "go on"},
		Stdout:  `{"decision":"block","reason":"go on"}`,
	}, {
		Name:    "sessionStart answers are not read by Copilot",
		Payload: `{` + copilotCamel + `,"source":"new"}`,
		Verdict: agent.Verdict{Context: "c", Env: map[string]string{"A": "1"}},
	}, {
		Name:    "postToolUse answers are not read from command hooks",
		Payload: `{` + copilotCamel + `,"toolName":"bash","toolArgs":{},"toolResult":{}}`,
		Verdict: agent.Verdict{Context: "c"},
	}})
}

func TestCopilotFail(t *testing.T) {
	_, err := Dialect.Parse([]byte(`{}`), "")
	agenttest.CheckAnswer(t, Dialect.Fail(err), "", "does not say which event", 1)
}
