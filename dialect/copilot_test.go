package dialect

import (
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

const copilotCamel = `"sessionId":"cp1","timestamp":1760000000000,"cwd":"/repo"`
const copilotSnake = `"session_id":"cp1","timestamp":"2026-08-21T10:00:00Z","cwd":"/repo"`

func TestCopilotParse(t *testing.T) {
	runParseCases(t, Copilot, []parseCase{{
		name:    "camelCase preToolUse named on the command line, toolArgs as a JSON string",
		payload: `{` + copilotCamel + `,"toolName":"bash","toolArgs":"{\"command\":\"git push\",\"description\":\"d\"}"}`,
		arg:     "preToolUse",
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		fields: map[event.Step]map[string]string{
			event.PreToolUse:           {"tool_name": `"Shell"`, "conversation_id": `"cp1"`, "tool_input": `{"command":"git push","description":"d","working_directory":"/repo"}`},
			event.BeforeShellExecution: {"command": `"git push"`, "cwd": `"/repo"`},
		},
	}, {
		name:    "camelCase preToolUse inferred, toolArgs as an object",
		payload: `{` + copilotCamel + `,"toolName":"view","toolArgs":{"path":"README.md"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeReadFile},
		fields:  map[event.Step]map[string]string{event.BeforeReadFile: {"file_path": `"/repo/README.md"`}},
	}, {
		name:    "PascalCase PreToolUse with snake_case fields",
		payload: `{` + copilotSnake + `,"hook_event_name":"PreToolUse","tool_name":"powershell","tool_input":{"command":"git push"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Shell"`, "conversation_id": `"cp1"`}},
	}, {
		name:    "postToolUse of edit adds afterFileEdit",
		payload: `{` + copilotCamel + `,"toolName":"edit","toolArgs":{"path":"/repo/a","old_str":"x","new_str":"y"},"toolResult":{"resultType":"success","textResultForLlm":"ok"}}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		fields: map[event.Step]map[string]string{
			event.PostToolUse:   {"tool_name": `"Write"`, "tool_output": `"\"ok\""`},
			event.AfterFileEdit: {"file_path": `"/repo/a"`, "edits": `[{"old_string":"x","new_string":"y"}]`},
		},
	}, {
		name:    "postToolUse of create",
		payload: `{` + copilotSnake + `,"hook_event_name":"PostToolUse","tool_name":"create","tool_input":{"path":"/repo/n","file_text":"hi"},"tool_result":{"result_type":"success","text_result_for_llm":"created"}}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		fields:  map[event.Step]map[string]string{event.AfterFileEdit: {"edits": `[{"old_string":"","new_string":"hi"}]`}, event.PostToolUse: {"tool_output": `"\"created\""`}},
	}, {
		name:    "postToolUse of bash",
		payload: `{` + copilotCamel + `,"toolName":"bash","toolArgs":{"command":"ls"},"toolResult":{"resultType":"success","textResultForLlm":"a b"}}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterShellExecution},
		fields:  map[event.Step]map[string]string{event.AfterShellExecution: {"output": `"a b"`}},
	}, {
		name:    "postToolUseFailure inferred from error",
		payload: `{` + copilotCamel + `,"toolName":"bash","toolArgs":{"command":"x"},"error":"boom"}`,
		kind:    ToolFailure,
		steps:   []event.Step{event.PostToolUseFailure},
		fields:  map[event.Step]map[string]string{event.PostToolUseFailure: {"error_message": `"boom"`}},
	}, {
		name:    "userPromptSubmitted",
		payload: `{` + copilotCamel + `,"prompt":"hi"}`,
		kind:    Prompt,
		steps:   []event.Step{event.BeforeSubmitPrompt},
		fields:  map[event.Step]map[string]string{event.BeforeSubmitPrompt: {"prompt": `"hi"`}},
	}, {
		name:    "agentStop: Copilot does not say whether a hook kept it going",
		payload: `{` + copilotCamel + `,"transcriptPath":"/t","stopReason":"end_turn"}`,
		kind:    Stop,
		steps:   []event.Step{event.Stop},
		fields:  map[event.Step]map[string]string{event.Stop: {"transcript_path": `"/t"`}},
		absent:  map[event.Step][]string{event.Stop: {"loop_count"}},
	}, {
		name:    "agentStop not after a stop hook's block: the chain of follow-ups starts over",
		payload: `{` + copilotCamel + `,"transcriptPath":"/t","stopReason":"end_turn","stop_hook_active":false}`,
		kind:    Stop,
		steps:   []event.Step{event.Stop},
		fields:  map[event.Step]map[string]string{event.Stop: {"loop_count": `0`}},
	}, {
		name:    "agentStop after a stop hook's block: the engine's count stands",
		payload: `{` + copilotCamel + `,"transcriptPath":"/t","stopReason":"end_turn","stop_hook_active":true}`,
		kind:    Stop,
		steps:   []event.Step{event.Stop},
		absent:  map[event.Step][]string{event.Stop: {"loop_count"}},
	}, {
		name:    "PascalCase Stop after a block",
		payload: `{` + copilotSnake + `,"hook_event_name":"Stop","transcript_path":"/t","stop_reason":"end_turn","stop_hook_active":false}`,
		kind:    Stop,
		steps:   []event.Step{event.Stop},
		fields:  map[event.Step]map[string]string{event.Stop: {"loop_count": `0`}},
	}, {
		name:    "subagentStop with stop_hook_active false",
		payload: `{` + copilotCamel + `,"transcriptPath":"/t","agentName":"r","stopReason":"end_turn","stopHookActive":false}`,
		kind:    SubagentStop,
		steps:   []event.Step{event.SubagentStop},
		fields:  map[event.Step]map[string]string{event.SubagentStop: {"loop_count": `0`}},
	}, {
		name:    "PascalCase Stop",
		payload: `{` + copilotSnake + `,"hook_event_name":"Stop","transcript_path":"/t","stop_reason":"end_turn"}`,
		kind:    Stop,
		steps:   []event.Step{event.Stop},
	}, {
		name:    "subagentStop",
		payload: `{` + copilotCamel + `,"transcriptPath":"/t","agentName":"reviewer","stopReason":"end_turn"}`,
		kind:    SubagentStop,
		steps:   []event.Step{event.SubagentStop},
		fields:  map[event.Step]map[string]string{event.SubagentStop: {"subagent_type": `"reviewer"`}},
	}, {
		name:    "sessionStart",
		payload: `{` + copilotCamel + `,"source":"new","initialPrompt":"x"}`,
		kind:    SessionStart,
		steps:   []event.Step{event.SessionStart},
		fields:  map[event.Step]map[string]string{event.SessionStart: {"session_id": `"cp1"`, "source": `"new"`}},
	}, {
		name:    "sessionEnd",
		payload: `{` + copilotCamel + `,"reason":"user_exit"}`,
		kind:    SessionEnd,
		steps:   []event.Step{event.SessionEnd},
		fields:  map[event.Step]map[string]string{event.SessionEnd: {"reason": `"user_close"`, "final_status": `"user_exit"`}},
	}, {
		name:    "preCompact",
		payload: `{` + copilotCamel + `,"transcriptPath":"/t","trigger":"manual","customInstructions":""}`,
		kind:    Compact,
		steps:   []event.Step{event.PreCompact},
	}, {
		name:    "subagentStart has no counterpart (Copilot cannot block it)",
		payload: `{` + copilotCamel + `,"transcriptPath":"/t","agentName":"reviewer"}`,
		kind:    None,
		steps:   []event.Step{},
	}, {
		name:    "errorOccurred has no counterpart",
		payload: `{` + copilotCamel + `,"error":{"message":"m","name":"E"},"errorContext":"system","recoverable":true}`,
		kind:    None,
		steps:   []event.Step{},
	}, {
		name:    "notification has no counterpart",
		payload: `{` + copilotCamel + `,"hook_event_name":"Notification","message":"m","notification_type":"agent_idle"}`,
		kind:    None,
		steps:   []event.Step{},
	}})
}

func TestCopilotParseErrors(t *testing.T) {
	runErrorCases(t, Copilot, []errorCase{
		{name: "not JSON", payload: `x`, contains: "not a JSON object"},
		{name: "no way to tell the event", payload: `{` + copilotCamel + `}`, contains: "does not say which event"},
		{name: "toolArgs string that is not an object", payload: `{` + copilotCamel + `,"toolName":"bash","toolArgs":"ls -la"}`, contains: `"toolArgs" is a string that does not hold a JSON object`, gating: true},
		{name: "toolName missing with the event named", payload: `{` + copilotCamel + `,"toolArgs":{}}`, arg: "preToolUse", contains: `"toolName" is missing`, gating: true},
	})
}

const copilotBash = `{` + copilotCamel + `,"toolName":"bash","toolArgs":{"command":"git push"}}`
const copilotPascalBash = `{` + copilotSnake + `,"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{"command":"git push"}}`

func TestCopilotAnswer(t *testing.T) {
	runAnswerCases(t, Copilot, []answerCase{{
		name:    "deny",
		payload: copilotBash,
		verdict: deny("no push"),
		stdout:  `{"permissionDecision":"deny","permissionDecisionReason":"no push"}`,
	}, {
		name:    "deny, PascalCase: also the VS Code form",
		payload: copilotPascalBash,
		verdict: deny("no push"),
		stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no push"},"permissionDecision":"deny","permissionDecisionReason":"no push"}`,
	}, {
		name:    "ask",
		payload: copilotBash,
		verdict: Verdict{Permission: event.Ask},
		stdout:  `{"permissionDecision":"ask","permissionDecisionReason":"A hook asks for confirmation."}`,
	}, {
		name:    "no objection",
		payload: copilotBash,
		verdict: Verdict{Permission: event.Allow},
	}, {
		name:    "approve",
		payload: copilotBash,
		verdict: Verdict{Permission: event.Allow, UserMessage: "ok"},
		approve: true,
		stdout:  `{"permissionDecision":"allow","permissionDecisionReason":"ok"}`,
	}, {
		name:    "a rewrite is modifiedArgs",
		payload: copilotBash,
		verdict: Verdict{UpdatedInput: map[string]any{"command": "git status", "working_directory": "/repo"}},
		stdout:  `{"modifiedArgs":{"command":"git status"}}`,
	}, {
		name:    "a rewrite, PascalCase",
		payload: copilotPascalBash,
		verdict: Verdict{UpdatedInput: map[string]any{"command": "git status"}},
		stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"git status"}},"modifiedArgs":{"command":"git status"}}`,
	}, {
		name:    "a blocked prompt cannot be stopped: a warning on stderr, exit 2",
		payload: `{` + copilotCamel + `,"prompt":"x"}`,
		verdict: Verdict{PromptBlocked: true, PromptMessage: "Submission blocked by hook: no"},
		stderr:  "Submission blocked by hook: no (GitHub Copilot cannot stop a prompt",
		code:    2,
	}, {
		name:    "a follow-up at agentStop",
		payload: `{` + copilotCamel + `,"stopReason":"end_turn"}`,
		verdict: Verdict{Followup: "go on"},
		stdout:  `{"decision":"block","reason":"go on"}`,
	}, {
		name:    "a follow-up at subagentStop",
		payload: `{` + copilotCamel + `,"agentName":"r","stopReason":"end_turn"}`,
		verdict: Verdict{Followup: "go on"},
		stdout:  `{"decision":"block","reason":"go on"}`,
	}, {
		name:    "sessionStart answers are not read by Copilot",
		payload: `{` + copilotCamel + `,"source":"new"}`,
		verdict: Verdict{Context: "c", Env: map[string]string{"A": "1"}},
	}, {
		name:    "postToolUse answers are not read from command hooks",
		payload: `{` + copilotCamel + `,"toolName":"bash","toolArgs":{},"toolResult":{}}`,
		verdict: Verdict{Context: "c"},
	}})
}

func TestCopilotFail(t *testing.T) {
	_, err := Copilot.Parse([]byte(`{}`), "")
	checkAnswer(t, Copilot.Fail(err), "", "does not say which event", 1)
}
