package dialect

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

const claudeCommon = `"session_id":"s1","prompt_id":"p1","transcript_path":"/t.jsonl","cwd":"/repo","permission_mode":"default"`

func TestClaudeParse(t *testing.T) {
	runParseCases(t, Claude, []parseCase{{
		name:    "PreToolUse Bash is preToolUse Shell and beforeShellExecution",
		payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push","description":"push"},"tool_use_id":"t1"}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		fields: map[event.Step]map[string]string{
			event.PreToolUse: {
				"tool_name":       `"Shell"`,
				"tool_input":      `{"command":"git push","description":"push","working_directory":"/repo"}`,
				"tool_use_id":     `"t1"`,
				"cwd":             `"/repo"`,
				"conversation_id": `"s1"`,
				"generation_id":   `"p1"`,
				"transcript_path": `"/t.jsonl"`,
			},
			event.BeforeShellExecution: {"command": `"git push"`, "cwd": `"/repo"`, "sandbox": `false`, "conversation_id": `"s1"`},
		},
	}, {
		name:    "PreToolUse Read adds beforeReadFile with an absolute path and no content yet",
		payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"src/a.go","limit":10}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeReadFile},
		fields: map[event.Step]map[string]string{
			event.PreToolUse:     {"tool_name": `"Read"`, "tool_input": `{"file_path":"src/a.go","limit":10}`},
			event.BeforeReadFile: {"file_path": `"/repo/src/a.go"`, "attachments": `[]`},
		},
		absent: map[event.Step][]string{event.BeforeReadFile: {"content"}},
	}, {
		name:    "PreToolUse of an MCP tool is preToolUse MCP:tool and beforeMCPExecution",
		payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"mcp__github__create_issue","tool_input":{"title":"x"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeMCPExecution},
		fields: map[event.Step]map[string]string{
			event.PreToolUse:         {"tool_name": `"MCP:create_issue"`, "tool_input": `{"title":"x"}`},
			event.BeforeMCPExecution: {"tool_name": `"create_issue"`, "tool_input": `"{\"title\":\"x\"}"`, "server": `"github"`},
		},
	}, {
		name:    "a plugin's MCP server keeps its prefix",
		payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"mcp__plugin_p_srv__do","tool_input":{}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeMCPExecution},
		fields:  map[event.Step]map[string]string{event.BeforeMCPExecution: {"server": `"plugin_p_srv"`, "tool_name": `"do"`}},
	}, {
		name:    "Edit is Write before it runs, preToolUse only",
		payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/repo/a","old_string":"a","new_string":"b"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse},
		fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Write"`}},
	}, {
		name:    "Task adds subagentStart",
		payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"Task","tool_input":{"subagent_type":"explore","prompt":"look around","description":"d"},"tool_use_id":"t9"}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.SubagentStart},
		fields: map[event.Step]map[string]string{
			event.PreToolUse:    {"tool_name": `"Task"`},
			event.SubagentStart: {"subagent_type": `"explore"`, "task": `"look around"`, "tool_call_id": `"t9"`, "parent_conversation_id": `"s1"`},
		},
	}, {
		name:    "Agent is Task too",
		payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"Agent","tool_input":{"subagent_type":"general","prompt":"p"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.SubagentStart},
		fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Task"`}},
	}, {
		name:    "Grep, Glob and unlisted tools keep a name",
		payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://x"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse},
		fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"WebFetch"`, "tool_input": `{"url":"https://x"}`}},
	}, {
		name:    "PostToolUse Write adds afterFileEdit with the whole content",
		payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/repo/a.txt","content":"hello"},"tool_response":{"success":true},"duration_ms":12,"tool_use_id":"t2"}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		fields: map[event.Step]map[string]string{
			event.PostToolUse:   {"tool_name": `"Write"`, "tool_output": `"{\"success\":true}"`, "duration": `12`, "tool_use_id": `"t2"`},
			event.AfterFileEdit: {"file_path": `"/repo/a.txt"`, "edits": `[{"old_string":"","new_string":"hello"}]`},
		},
	}, {
		name:    "PostToolUse Edit is one replacement",
		payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/repo/a","old_string":"x","new_string":"y"},"tool_response":{}}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		fields:  map[event.Step]map[string]string{event.AfterFileEdit: {"edits": `[{"old_string":"x","new_string":"y"}]`}},
	}, {
		name:    "PostToolUse MultiEdit is its list of replacements",
		payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/repo/a","edits":[{"old_string":"1","new_string":"2"},{"old_string":"3","new_string":"4","replace_all":true}]},"tool_response":{}}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		fields:  map[event.Step]map[string]string{event.AfterFileEdit: {"edits": `[{"old_string":"1","new_string":"2"},{"old_string":"3","new_string":"4"}]`}},
	}, {
		name:    "PostToolUse Bash adds afterShellExecution with the terminal text",
		payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":{"stdout":"built","stderr":"warn","interrupted":false}}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterShellExecution},
		fields: map[event.Step]map[string]string{
			event.PostToolUse:         {"tool_name": `"Shell"`},
			event.AfterShellExecution: {"command": `"make"`, "output": `"built\nwarn"`, "sandbox": `false`},
		},
	}, {
		name:    "PostToolUse of an MCP tool adds afterMCPExecution",
		payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"mcp__db__query","tool_input":{"sql":"select 1"},"tool_response":[{"type":"text","text":"1"}]}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterMCPExecution},
		fields: map[event.Step]map[string]string{
			event.AfterMCPExecution: {"tool_name": `"query"`, "tool_input": `"{\"sql\":\"select 1\"}"`, "result_json": `"[{\"text\":\"1\",\"type\":\"text\"}]"`},
		},
	}, {
		name:    "PostToolUse Read has no after-step of its own",
		payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{"file_path":"/repo/a"},"tool_response":"text"}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse},
		fields:  map[event.Step]map[string]string{event.PostToolUse: {"tool_output": `"\"text\""`}},
	}, {
		name:    "PostToolUseFailure",
		payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"false"},"error":"exit 1","is_interrupt":true}`,
		kind:    ToolFailure,
		steps:   []event.Step{event.PostToolUseFailure},
		fields: map[event.Step]map[string]string{event.PostToolUseFailure: {
			"tool_name": `"Shell"`, "error_message": `"exit 1"`, "failure_type": `"error"`, "is_interrupt": `true`,
		}},
	}, {
		name:    "UserPromptSubmit is beforeSubmitPrompt",
		payload: `{` + claudeCommon + `,"hook_event_name":"UserPromptSubmit","prompt":"fix it"}`,
		kind:    Prompt,
		steps:   []event.Step{event.BeforeSubmitPrompt},
		fields:  map[event.Step]map[string]string{event.BeforeSubmitPrompt: {"prompt": `"fix it"`, "attachments": `[]`, "conversation_id": `"s1"`}},
	}, {
		name:    "Stop without stop_hook_active starts the follow-up count over",
		payload: `{` + claudeCommon + `,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"}`,
		kind:    Stop,
		steps:   []event.Step{event.Stop},
		fields:  map[event.Step]map[string]string{event.Stop: {"status": `"completed"`, "loop_count": `0`}},
	}, {
		name:    "Stop with stop_hook_active leaves the count to the engine",
		payload: `{` + claudeCommon + `,"hook_event_name":"Stop","stop_hook_active":true}`,
		kind:    Stop,
		steps:   []event.Step{event.Stop},
		absent:  map[event.Step][]string{event.Stop: {"loop_count"}},
	}, {
		name:    "SubagentStop",
		payload: `{` + claudeCommon + `,"hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"a1","agent_type":"explore","last_assistant_message":"found it","agent_transcript_path":"/a.jsonl"}`,
		kind:    SubagentStop,
		steps:   []event.Step{event.SubagentStop},
		fields: map[event.Step]map[string]string{event.SubagentStop: {
			"subagent_id": `"a1"`, "subagent_type": `"explore"`, "summary": `"found it"`, "status": `"completed"`,
			"agent_transcript_path": `"/a.jsonl"`, "loop_count": `0`, "modified_files": `[]`,
		}},
	}, {
		name:    "SessionStart",
		payload: `{"session_id":"s1","cwd":"/repo","hook_event_name":"SessionStart","source":"resume","model":"claude-x"}`,
		kind:    SessionStart,
		steps:   []event.Step{event.SessionStart},
		fields: map[event.Step]map[string]string{event.SessionStart: {
			"session_id": `"s1"`, "conversation_id": `"s1"`, "source": `"resume"`, "model": `"claude-x"`, "is_background_agent": `false`,
		}},
	}, {
		name:    "SessionEnd keeps Claude's reason in final_status",
		payload: `{` + claudeCommon + `,"hook_event_name":"SessionEnd","reason":"prompt_input_exit"}`,
		kind:    SessionEnd,
		steps:   []event.Step{event.SessionEnd},
		fields:  map[event.Step]map[string]string{event.SessionEnd: {"reason": `"user_close"`, "final_status": `"prompt_input_exit"`, "session_id": `"s1"`}},
	}, {
		name:    "PreCompact",
		payload: `{` + claudeCommon + `,"hook_event_name":"PreCompact","trigger":"manual","custom_instructions":""}`,
		kind:    Compact,
		steps:   []event.Step{event.PreCompact},
		fields:  map[event.Step]map[string]string{event.PreCompact: {"trigger": `"manual"`}},
	}, {
		name:    "Notification has no counterpart",
		payload: `{` + claudeCommon + `,"hook_event_name":"Notification","message":"waiting","notification_type":"idle_prompt"}`,
		kind:    None,
		steps:   []event.Step{},
	}, {
		name:    "PermissionRequest has no counterpart",
		payload: `{` + claudeCommon + `,"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		kind:    None,
		steps:   []event.Step{},
	}, {
		// A Cursor-shaped payload is what agenthooks itself would send a
		// bridged Claude hook: answering nothing ends the recursion.
		name:    "a Cursor step name is not a Claude event",
		payload: `{"conversation_id":"c","hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"ls"}}`,
		kind:    None,
		steps:   []event.Step{},
	}, {
		name:    "the event argument serves a payload without hook_event_name",
		payload: `{"session_id":"s1","prompt":"hi"}`,
		arg:     "UserPromptSubmit",
		kind:    Prompt,
		steps:   []event.Step{event.BeforeSubmitPrompt},
	}})
}

func TestClaudeParseErrors(t *testing.T) {
	runErrorCases(t, Claude, []errorCase{
		{name: "not JSON", payload: `hello`, contains: "not a JSON object"},
		{name: "an array", payload: `[1,2]`, contains: "not a JSON object"},
		{name: "null", payload: `null`, contains: "not a JSON object"},
		{name: "empty", payload: "  \n", contains: "stdin is empty"},
		{name: "no event", payload: `{"session_id":"s1"}`, contains: `"hook_event_name" is missing`},
		{name: "event not a string", payload: `{"hook_event_name":3}`, contains: `"hook_event_name" must be a string`},
		{name: "PreToolUse without tool_input", payload: `{"hook_event_name":"PreToolUse","tool_name":"Bash"}`, contains: `"tool_input" is missing`, gating: true},
		{name: "PreToolUse without tool_name", payload: `{"hook_event_name":"PreToolUse","tool_input":{}}`, contains: `"tool_name" is missing`, gating: true},
		{name: "tool_input not an object", payload: `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"ls"}`, contains: `"tool_input" must be a JSON object`, gating: true},
		{name: "PostToolUse without tool_name", payload: `{"hook_event_name":"PostToolUse","tool_input":{}}`, contains: `"tool_name" is missing`},
		{name: "stop_hook_active not a bool", payload: `{"hook_event_name":"Stop","stop_hook_active":"yes"}`, contains: `"stop_hook_active" must be true or false`},
	})
}

const claudeBash = `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push","description":"push"}}`

func TestClaudeAnswer(t *testing.T) {
	reason := "The terminal command was rejected by a hook. no. " + noWorkaround
	runAnswerCases(t, Claude, []answerCase{{
		name:    "deny reaches the model as permissionDecisionReason",
		payload: claudeBash,
		verdict: deny(reason),
		stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + reason + `"}}`,
	}, {
		name:    "ask is Claude's ask, its reason for the user",
		payload: claudeBash,
		verdict: Verdict{Permission: event.Ask, UserMessage: "Really push?"},
		stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Really push?"}}`,
	}, {
		name:    "an allow is no objection by default",
		payload: claudeBash,
		verdict: Verdict{Permission: event.Allow, UserMessage: "fine"},
	}, {
		name:    "an allow is an approval with --allow-means=approve",
		payload: claudeBash,
		verdict: Verdict{Permission: event.Allow, UserMessage: "fine"},
		approve: true,
		stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}`,
	}, {
		name:    "no opinion stays silent even with approve",
		payload: claudeBash,
		approve: true,
	}, {
		name:    "a rewrite is updatedInput over the whole input, without a decision",
		payload: claudeBash,
		verdict: Verdict{UpdatedInput: map[string]any{"command": "git status", "working_directory": "/repo"}},
		stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"git status","description":"push"}}}`,
	}, {
		name:    "a rewrite with an approved allow",
		payload: claudeBash,
		verdict: Verdict{Permission: event.Allow, UpdatedInput: map[string]any{"command": "git status"}},
		approve: true,
		stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"git status","description":"push"}}}`,
	}, {
		name:    "a deny drops a rewrite",
		payload: claudeBash,
		verdict: Verdict{Permission: event.Deny, Reason: "no", UpdatedInput: map[string]any{"command": "x"}},
		stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`,
	}, {
		name:    "PostToolUse context",
		payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":{}}`,
		verdict: Verdict{Context: "coverage 80%", UpdatedToolOutput: json.RawMessage(`{"x":1}`)},
		stdout:  `{"hookSpecificOutput":{"additionalContext":"coverage 80%","hookEventName":"PostToolUse"}}`,
	}, {
		name:    "PostToolUse of an MCP tool may replace its output",
		payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"mcp__db__q","tool_input":{},"tool_response":{}}`,
		verdict: Verdict{UpdatedToolOutput: json.RawMessage(`{"rows":[]}`)},
		stdout:  `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"rows":[]}}}`,
	}, {
		name:    "a blocked prompt",
		payload: `{` + claudeCommon + `,"hook_event_name":"UserPromptSubmit","prompt":"x"}`,
		verdict: Verdict{PromptBlocked: true, PromptMessage: "Submission blocked by hook: no secrets"},
		stdout:  `{"decision":"block","reason":"Submission blocked by hook: no secrets"}`,
	}, {
		name:    "a follow-up keeps Claude going",
		payload: `{` + claudeCommon + `,"hook_event_name":"Stop","stop_hook_active":false}`,
		verdict: Verdict{Followup: "run the tests"},
		stdout:  `{"decision":"block","reason":"run the tests"}`,
	}, {
		name:    "no follow-up lets Claude stop",
		payload: `{` + claudeCommon + `,"hook_event_name":"Stop","stop_hook_active":true}`,
	}, {
		name:    "a subagent's follow-up",
		payload: `{` + claudeCommon + `,"hook_event_name":"SubagentStop","agent_type":"explore"}`,
		verdict: Verdict{Followup: "dig deeper"},
		stdout:  `{"decision":"block","reason":"dig deeper"}`,
	}, {
		name:    "SessionStart context, and the env for CLAUDE_ENV_FILE",
		payload: `{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}`,
		verdict: Verdict{Context: "branch main", Env: map[string]string{"A": "1"}},
		stdout:  `{"hookSpecificOutput":{"additionalContext":"branch main","hookEventName":"SessionStart"}}`,
		env:     map[string]string{"A": "1"},
	}, {
		name:    "PreCompact notice",
		payload: `{` + claudeCommon + `,"hook_event_name":"PreCompact","trigger":"auto"}`,
		verdict: Verdict{Notice: "compacting"},
		stdout:  `{"systemMessage":"compacting"}`,
	}, {
		name:    "SessionEnd has nothing to say",
		payload: `{` + claudeCommon + `,"hook_event_name":"SessionEnd","reason":"other"}`,
		verdict: Verdict{Notice: "ignored"},
	}, {
		name:    "an event with no counterpart: empty success",
		payload: `{` + claudeCommon + `,"hook_event_name":"Notification"}`,
	}})
}

func TestClaudeFail(t *testing.T) {
	_, err := Claude.Parse([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash"}`), "")
	a := Claude.Fail(err)
	// Claude treats exit 1 as a non-blocking error: the action goes ahead.
	checkAnswer(t, a, "", `"tool_input" is missing`, 1)
	checkAnswer(t, Claude.Fail(errors.New("state store locked")), "", "agenthooks: state store locked", 1)
}
