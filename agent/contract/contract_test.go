package contract

import (
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agenttest"
	"github.com/agenthooks/agenthooks/event"
)

func TestContractParse(t *testing.T) {
	agenttest.RunParseCases(t, Dialect, []agenttest.ParseCase{{
		Name:    "Shell",
		Payload: `{"tool_name":"Shell","tool_input":{"command":"git push"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		Fields: map[event.Step]map[string]string{
			event.PreToolUse:           {"tool_name": `"Shell"`, "tool_input": `{"command":"git push"}`},
			event.BeforeShellExecution: {"command": `"git push"`},
		},
	}, {
		Name:    "Bash is Shell, with a cwd when given",
		Payload: `{"tool_name":"Bash","tool_input":{"command":"ls","cwd":"/repo"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		Fields: map[event.Step]map[string]string{
			event.PreToolUse:           {"tool_name": `"Shell"`, "tool_input": `{"command":"ls","cwd":"/repo","working_directory":"/repo"}`},
			event.BeforeShellExecution: {"cwd": `"/repo"`},
		},
	}, {
		Name:    "Read {path}",
		Payload: `{"tool_name":"Read","tool_input":{"path":"/repo/.env"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeReadFile},
		Fields:  map[event.Step]map[string]string{event.BeforeReadFile: {"file_path": `"/repo/.env"`}},
	}, {
		Name:    "Write {path, contents}",
		Payload: `{"tool_name":"Write","tool_input":{"path":"/repo/a","contents":"x"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse},
		Fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Write"`, "tool_input": `{"path":"/repo/a","contents":"x"}`}},
	}, {
		Name:    "Edit and MultiEdit are Write",
		Payload: `{"tool_name":"MultiEdit","tool_input":{"path":"/repo/a"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse},
		Fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Write"`}},
	}, {
		Name:    "Grep",
		Payload: `{"tool_name":"Grep","tool_input":{"pattern":"x"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse},
		Fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Grep"`}},
	}, {
		Name:    "another tool keeps its name",
		Payload: `{"tool_name":"Deploy","tool_input":{}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse},
		Fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Deploy"`}},
	}, {
		Name:    "SessionStart",
		Payload: `{"tool_name":"SessionStart","tool_input":{"session_id":"k1","cwd":"/repo"}}`,
		Kind:    agent.SessionStart,
		Steps:   []event.Step{event.SessionStart},
		Fields:  map[event.Step]map[string]string{event.SessionStart: {"session_id": `"k1"`, "conversation_id": `"k1"`}},
	}, {
		Name:    "beforeSubmitPrompt",
		Payload: `{"tool_name":"beforeSubmitPrompt","tool_input":{"session_id":"k1","prompt":"hi"}}`,
		Kind:    agent.Prompt,
		Steps:   []event.Step{event.BeforeSubmitPrompt},
		Fields:  map[event.Step]map[string]string{event.BeforeSubmitPrompt: {"prompt": `"hi"`}},
	}, {
		Name:    "Stop with stop_hook_active false",
		Payload: `{"tool_name":"Stop","tool_input":{"transcript_path":"/t","stop_hook_active":false}}`,
		Kind:    agent.Stop,
		Steps:   []event.Step{event.Stop},
		Fields:  map[event.Step]map[string]string{event.Stop: {"loop_count": `0`, "transcript_path": `"/t"`}},
	}, {
		Name:    "Stop without stop_hook_active",
		Payload: `{"tool_name":"stop","tool_input":{}}`,
		Kind:    agent.Stop,
		Steps:   []event.Step{event.Stop},
		Absent:  map[event.Step][]string{event.Stop: {"loop_count"}},
	}, {
		Name:    "PreCompact",
		Payload: `{"tool_name":"PreCompact","tool_input":{"trigger":"manual"}}`,
		Kind:    agent.Compact,
		Steps:   []event.Step{event.PreCompact},
	}, {
		Name:    "SessionEnd",
		Payload: `{"tool_name":"SessionEnd","tool_input":{"session_id":"k1"}}`,
		Kind:    agent.SessionEnd,
		Steps:   []event.Step{event.SessionEnd},
	}})
}

func TestContractParseErrors(t *testing.T) {
	agenttest.RunErrorCases(t, Dialect, []agenttest.ErrorCase{
		{Name: "not JSON", Payload: `x`, Contains: "not a JSON object"},
		{Name: "no tool_name", Payload: `{"tool_input":{}}`, Contains: `"tool_name" is missing`},
		{Name: "tool_input not an object", Payload: `{"tool_name":"Shell","tool_input":"ls"}`, Contains: `"tool_input" must be a JSON object`, Gating: true},
		{Name: "tool_input a list", Payload: `{"tool_name":"Write","tool_input":["x"]}`, Contains: `"tool_input" must be a JSON object`, Gating: true},
		{Name: "a lifecycle event's input not an object", Payload: `{"tool_name":"Stop","tool_input":"x"}`, Contains: `"tool_input" must be a JSON object`},
		{Name: "Shell without a command", Payload: `{"tool_name":"Shell","tool_input":{}}`, Contains: `"tool_input.command" is missing`, Gating: true},
	})
}

const contractShell = `{"tool_name":"Shell","tool_input":{"command":"git push"}}`

func TestContractAnswer(t *testing.T) {
	agenttest.RunAnswerCases(t, Dialect, []agenttest.AnswerCase{{
		Name:    "deny: JSON, exit 2, the reason on stderr",
		Payload: contractShell,
		Verdict: agenttest.Deny("no push"),
		Stdout:  `{"decision":"deny","reason":"no push"}`,
		Stderr:  "no push",
		Code:    2,
	}, {
		Name:    "ask is a deny",
		Payload: contractShell,
		Verdict: agent.Verdict{Permission: event.Ask, UserMessage: "sure?"},
		Stdout:  `{"decision":"deny","reason":"A hook asks for the user's confirmation before this action, and the hook contract cannot ask for it, so the action was not run. The hook says: sure? Ask the user to confirm before trying again."}`,
		Stderr:  "the hook contract cannot ask",
		Code:    2,
	}, {
		Name:    "no objection",
		Payload: contractShell,
		Verdict: agent.Verdict{Permission: event.Allow},
		Stdout:  `{}`,
	}, {
		Name:    "approve",
		Payload: contractShell,
		Verdict: agent.Verdict{Permission: event.Allow},
		Approve: true,
		Stdout:  `{"decision":"allow"}`,
	}, {
		Name:    "a rewrite cannot be passed on, so it is refused",
		Payload: contractShell,
		Verdict: agent.Verdict{UpdatedInput: map[string]any{"command": "git status"}},
		Stdout:  `{"decision":"deny","reason":"A hook rewrote this tool call, and the hook contract cannot pass a rewritten input on, so the original was not run. The rewritten input is: {\"command\":\"git status\"}"}`,
		Stderr:  "rewrote",
		Code:    2,
	}, {
		Name:    "a blocked prompt",
		Payload: `{"tool_name":"beforeSubmitPrompt","tool_input":{"prompt":"x"}}`,
		Verdict: agent.Verdict{PromptBlocked: true, PromptMessage: "no"},
		Stdout:  `{"decision":"deny","reason":"no"}`,
		Stderr:  "no",
		Code:    2,
	}, {
		Name:    "a stop follow-up is reason only",
		Payload: `{"tool_name":"Stop","tool_input":{}}`,
		Verdict: agent.Verdict{Followup: "more"},
		Stdout:  `{"reason":"more"}`,
	}, {
		Name:    "session context is a message",
		Payload: `{"tool_name":"SessionStart","tool_input":{}}`,
		Verdict: agent.Verdict{Context: "c"},
		Stdout:  `{"message":"c"}`,
	}, {
		Name:    "a compaction note is a message",
		Payload: `{"tool_name":"PreCompact","tool_input":{}}`,
		Verdict: agent.Verdict{Notice: "n"},
		Stdout:  `{"message":"n"}`,
	}, {
		Name:    "SessionEnd: an empty object",
		Payload: `{"tool_name":"SessionEnd","tool_input":{}}`,
		Stdout:  `{}`,
	}})
}

func TestContractFail(t *testing.T) {
	// The contract: on parse errors answer allow and exit 0.
	_, err := Dialect.Parse([]byte(`{"tool_name":"Shell","tool_input":{}}`), "")
	agenttest.CheckAnswer(t, Dialect.Fail(err), `{"decision":"allow"}`, `"tool_input.command" is missing`, 0)
}
