package dialect

import (
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

func TestContractParse(t *testing.T) {
	runParseCases(t, Contract, []parseCase{{
		name:    "Shell",
		payload: `{"tool_name":"Shell","tool_input":{"command":"git push"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		fields: map[event.Step]map[string]string{
			event.PreToolUse:           {"tool_name": `"Shell"`, "tool_input": `{"command":"git push"}`},
			event.BeforeShellExecution: {"command": `"git push"`},
		},
	}, {
		name:    "Bash is Shell, with a cwd when given",
		payload: `{"tool_name":"Bash","tool_input":{"command":"ls","cwd":"/repo"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		fields: map[event.Step]map[string]string{
			event.PreToolUse:           {"tool_name": `"Shell"`, "tool_input": `{"command":"ls","cwd":"/repo","working_directory":"/repo"}`},
			event.BeforeShellExecution: {"cwd": `"/repo"`},
		},
	}, {
		name:    "Read {path}",
		payload: `{"tool_name":"Read","tool_input":{"path":"/repo/.env"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeReadFile},
		fields:  map[event.Step]map[string]string{event.BeforeReadFile: {"file_path": `"/repo/.env"`}},
	}, {
		name:    "Write {path, contents}",
		payload: `{"tool_name":"Write","tool_input":{"path":"/repo/a","contents":"x"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse},
		fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Write"`, "tool_input": `{"path":"/repo/a","contents":"x"}`}},
	}, {
		name:    "Edit and MultiEdit are Write",
		payload: `{"tool_name":"MultiEdit","tool_input":{"path":"/repo/a"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse},
		fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Write"`}},
	}, {
		name:    "Grep",
		payload: `{"tool_name":"Grep","tool_input":{"pattern":"x"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse},
		fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Grep"`}},
	}, {
		name:    "another tool keeps its name",
		payload: `{"tool_name":"Deploy","tool_input":{}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse},
		fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Deploy"`}},
	}, {
		name:    "SessionStart",
		payload: `{"tool_name":"SessionStart","tool_input":{"session_id":"k1","cwd":"/repo"}}`,
		kind:    SessionStart,
		steps:   []event.Step{event.SessionStart},
		fields:  map[event.Step]map[string]string{event.SessionStart: {"session_id": `"k1"`, "conversation_id": `"k1"`}},
	}, {
		name:    "beforeSubmitPrompt",
		payload: `{"tool_name":"beforeSubmitPrompt","tool_input":{"session_id":"k1","prompt":"hi"}}`,
		kind:    Prompt,
		steps:   []event.Step{event.BeforeSubmitPrompt},
		fields:  map[event.Step]map[string]string{event.BeforeSubmitPrompt: {"prompt": `"hi"`}},
	}, {
		name:    "Stop with stop_hook_active false",
		payload: `{"tool_name":"Stop","tool_input":{"transcript_path":"/t","stop_hook_active":false}}`,
		kind:    Stop,
		steps:   []event.Step{event.Stop},
		fields:  map[event.Step]map[string]string{event.Stop: {"loop_count": `0`, "transcript_path": `"/t"`}},
	}, {
		name:    "Stop without stop_hook_active",
		payload: `{"tool_name":"stop","tool_input":{}}`,
		kind:    Stop,
		steps:   []event.Step{event.Stop},
		absent:  map[event.Step][]string{event.Stop: {"loop_count"}},
	}, {
		name:    "PreCompact",
		payload: `{"tool_name":"PreCompact","tool_input":{"trigger":"manual"}}`,
		kind:    Compact,
		steps:   []event.Step{event.PreCompact},
	}, {
		name:    "SessionEnd",
		payload: `{"tool_name":"SessionEnd","tool_input":{"session_id":"k1"}}`,
		kind:    SessionEnd,
		steps:   []event.Step{event.SessionEnd},
	}})
}

func TestContractParseErrors(t *testing.T) {
	runErrorCases(t, Contract, []errorCase{
		{name: "not JSON", payload: `x`, contains: "not a JSON object"},
		{name: "no tool_name", payload: `{"tool_input":{}}`, contains: `"tool_name" is missing`},
		{name: "tool_input not an object", payload: `{"tool_name":"Shell","tool_input":"ls"}`, contains: `"tool_input" must be a JSON object`},
		{name: "Shell without a command", payload: `{"tool_name":"Shell","tool_input":{}}`, contains: `"tool_input.command" is missing`, gating: true},
	})
}

const contractShell = `{"tool_name":"Shell","tool_input":{"command":"git push"}}`

func TestContractAnswer(t *testing.T) {
	runAnswerCases(t, Contract, []answerCase{{
		name:    "deny: JSON, exit 2, the reason on stderr",
		payload: contractShell,
		verdict: deny("no push"),
		stdout:  `{"decision":"deny","reason":"no push"}`,
		stderr:  "no push",
		code:    2,
	}, {
		name:    "ask is a deny",
		payload: contractShell,
		verdict: Verdict{Permission: event.Ask, UserMessage: "sure?"},
		stdout:  `{"decision":"deny","reason":"A hook asks for the user's confirmation before this action, and the hook contract cannot ask for it, so the action was not run. The hook says: sure? Ask the user to confirm before trying again."}`,
		stderr:  "the hook contract cannot ask",
		code:    2,
	}, {
		name:    "no objection",
		payload: contractShell,
		verdict: Verdict{Permission: event.Allow},
		stdout:  `{}`,
	}, {
		name:    "approve",
		payload: contractShell,
		verdict: Verdict{Permission: event.Allow},
		approve: true,
		stdout:  `{"decision":"allow"}`,
	}, {
		name:    "a rewrite cannot be passed on, so it is refused",
		payload: contractShell,
		verdict: Verdict{UpdatedInput: map[string]any{"command": "git status"}},
		stdout:  `{"decision":"deny","reason":"A hook rewrote this tool call, and the hook contract cannot pass a rewritten input on, so the original was not run. The rewritten input is: {\"command\":\"git status\"}"}`,
		stderr:  "rewrote",
		code:    2,
	}, {
		name:    "a blocked prompt",
		payload: `{"tool_name":"beforeSubmitPrompt","tool_input":{"prompt":"x"}}`,
		verdict: Verdict{PromptBlocked: true, PromptMessage: "no"},
		stdout:  `{"decision":"deny","reason":"no"}`,
		stderr:  "no",
		code:    2,
	}, {
		name:    "a stop follow-up is reason only",
		payload: `{"tool_name":"Stop","tool_input":{}}`,
		verdict: Verdict{Followup: "more"},
		stdout:  `{"reason":"more"}`,
	}, {
		name:    "session context is a message",
		payload: `{"tool_name":"SessionStart","tool_input":{}}`,
		verdict: Verdict{Context: "c"},
		stdout:  `{"message":"c"}`,
	}, {
		name:    "a compaction note is a message",
		payload: `{"tool_name":"PreCompact","tool_input":{}}`,
		verdict: Verdict{Notice: "n"},
		stdout:  `{"message":"n"}`,
	}, {
		name:    "SessionEnd: an empty object",
		payload: `{"tool_name":"SessionEnd","tool_input":{}}`,
		stdout:  `{}`,
	}})
}

func TestContractFail(t *testing.T) {
	// The contract: on parse errors answer allow and exit 0.
	_, err := Contract.Parse([]byte(`{"tool_name":"Shell","tool_input":{}}`), "")
	checkAnswer(t, Contract.Fail(err), `{"decision":"allow"}`, `"tool_input.command" is missing`, 0)
}
