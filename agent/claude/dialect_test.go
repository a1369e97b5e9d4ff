package claude

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agenttest"
	"github.com/agenthooks/agenthooks/event"
)

const claudeCommon = `"session_id":"s1","prompt_id":"p1","transcript_path":"/t.jsonl","cwd":"/repo","permission_mode":"default"`

func TestClaudeParse(t *testing.T) {
	agenttest.RunParseCases(t, Dialect, []agenttest.ParseCase{{
		Name:    "PreToolUse Bash is preToolUse Shell and beforeShellExecution",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push","description":"push"},"tool_use_id":"t1"}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		Fields: map[event.Step]map[string]string{
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
		Name:    "PreToolUse Read adds beforeReadFile with an absolute path and no content yet",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"src/a.go","limit":10}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeReadFile},
		Fields: map[event.Step]map[string]string{
			event.PreToolUse:     {"tool_name": `"Read"`, "tool_input": `{"file_path":"src/a.go","limit":10}`},
			event.BeforeReadFile: {"file_path": `"/repo/src/a.go"`, "attachments": `[]`},
		},
		Absent: map[event.Step][]string{event.BeforeReadFile: {"content"}},
	}, {
		Name:    "PreToolUse of an MCP tool is preToolUse MCP:tool and beforeMCPExecution",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"mcp__github__create_issue","tool_input":{"title":"x"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeMCPExecution},
		Fields: map[event.Step]map[string]string{
			event.PreToolUse:         {"tool_name": `"MCP:create_issue"`, "tool_input": `{"title":"x"}`},
			event.BeforeMCPExecution: {"tool_name": `"create_issue"`, "tool_input": `"{\"title\":\"x\"}"`, "server": `"github"`},
		},
	}, {
		Name:    "a plugin's MCP server keeps its prefix",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"mcp__plugin_p_srv__do","tool_input":{}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeMCPExecution},
		Fields:  map[event.Step]map[string]string{event.BeforeMCPExecution: {"server": `"plugin_p_srv"`, "tool_name": `"do"`}},
	}, {
		Name:    "Edit is Write before it runs, preToolUse only",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/repo/a","old_string":"a","new_string":"b"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse},
		Fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Write"`}},
	}, {
		Name:    "Task adds subagentStart",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"Task","tool_input":{"subagent_type":"explore","prompt":"look around","description":"d"},"tool_use_id":"t9"}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.SubagentStart},
		Fields: map[event.Step]map[string]string{
			event.PreToolUse:    {"tool_name": `"Task"`},
			event.SubagentStart: {"subagent_type": `"explore"`, "task": `"look around"`, "tool_call_id": `"t9"`, "parent_conversation_id": `"s1"`},
		},
	}, {
		Name:    "Agent is Task too",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"Agent","tool_input":{"subagent_type":"general","prompt":"p"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.SubagentStart},
		Fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Task"`}},
	}, {
		Name:    "Grep, Glob and unlisted tools keep a name",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://x"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse},
		Fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"WebFetch"`, "tool_input": `{"url":"https://x"}`}},
	}, {
		Name:    "PostToolUse Write adds afterFileEdit with the whole content",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/repo/a.txt","content":"hello"},"tool_response":{"success":true},"duration_ms":12,"tool_use_id":"t2"}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		Fields: map[event.Step]map[string]string{
			event.PostToolUse:   {"tool_name": `"Write"`, "tool_output": `"{\"success\":true}"`, "duration": `12`, "tool_use_id": `"t2"`},
			event.AfterFileEdit: {"file_path": `"/repo/a.txt"`, "edits": `[{"old_string":"","new_string":"hello"}]`},
		},
	}, {
		Name:    "PostToolUse Edit is one replacement",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/repo/a","old_string":"x","new_string":"y"},"tool_response":{}}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		Fields:  map[event.Step]map[string]string{event.AfterFileEdit: {"edits": `[{"old_string":"x","new_string":"y"}]`}},
	}, {
		Name:    "PostToolUse MultiEdit is its list of replacements",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/repo/a","edits":[{"old_string":"1","new_string":"2"},{"old_string":"3","new_string":"4","replace_all":true}]},"tool_response":{}}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterFileEdit},
		Fields:  map[event.Step]map[string]string{event.AfterFileEdit: {"edits": `[{"old_string":"1","new_string":"2"},{"old_string":"3","new_string":"4"}]`}},
	}, {
		Name:    "PostToolUse Bash adds afterShellExecution with the terminal text",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":{"stdout":"built","stderr":"warn","interrupted":false}}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterShellExecution},
		Fields: map[event.Step]map[string]string{
			event.PostToolUse:         {"tool_name": `"Shell"`},
			event.AfterShellExecution: {"command": `"make"`, "output": `"built\nwarn"`, "sandbox": `false`},
		},
	}, {
		Name:    "PostToolUse of an MCP tool adds afterMCPExecution",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"mcp__db__query","tool_input":{"sql":"select 1"},"tool_response":[{"type":"text","text":"1"}]}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterMCPExecution},
		Fields: map[event.Step]map[string]string{
			event.AfterMCPExecution: {"tool_name": `"query"`, "tool_input": `"{\"sql\":\"select 1\"}"`, "result_json": `"[{\"text\":\"1\",\"type\":\"text\"}]"`},
		},
	}, {
		Name:    "PostToolUse Read has no after-step of its own",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{"file_path":"/repo/a"},"tool_response":"text"}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse},
		Fields:  map[event.Step]map[string]string{event.PostToolUse: {"tool_output": `"\"text\""`}},
	}, {
		Name:    "PostToolUseFailure",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"false"},"error":"exit 1","is_interrupt":true}`,
		Kind:    agent.ToolFailure,
		Steps:   []event.Step{event.PostToolUseFailure},
		Fields: map[event.Step]map[string]string{event.PostToolUseFailure: {
			"tool_name": `"Shell"`, "error_message": `"exit 1"`, "failure_type": `"error"`, "is_interrupt": `true`,
		}},
	}, {
		Name:    "UserPromptSubmit is beforeSubmitPrompt",
		Payload: `{` + claudeCommon + `,"hook_event_name":"UserPromptSubmit","prompt":"fix it"}`,
		Kind:    agent.Prompt,
		Steps:   []event.Step{event.BeforeSubmitPrompt},
		Fields:  map[event.Step]map[string]string{event.BeforeSubmitPrompt: {"prompt": `"fix it"`, "attachments": `[]`, "conversation_id": `"s1"`}},
	}, {
		Name:    "Stop without stop_hook_active starts the follow-up count over",
		Payload: `{` + claudeCommon + `,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"}`,
		Kind:    agent.Stop,
		Steps:   []event.Step{event.Stop},
		Fields:  map[event.Step]map[string]string{event.Stop: {"status": `"completed"`, "loop_count": `0`}},
	}, {
		Name:    "Stop with stop_hook_active leaves the count to the engine",
		Payload: `{` + claudeCommon + `,"hook_event_name":"Stop","stop_hook_active":true}`,
		Kind:    agent.Stop,
		Steps:   []event.Step{event.Stop},
		Absent:  map[event.Step][]string{event.Stop: {"loop_count"}},
	}, {
		Name:    "SubagentStop",
		Payload: `{` + claudeCommon + `,"hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"a1","agent_type":"explore","last_assistant_message":"found it","agent_transcript_path":"/a.jsonl"}`,
		Kind:    agent.SubagentStop,
		Steps:   []event.Step{event.SubagentStop},
		Fields: map[event.Step]map[string]string{event.SubagentStop: {
			"subagent_id": `"a1"`, "subagent_type": `"explore"`, "summary": `"found it"`, "status": `"completed"`,
			"agent_transcript_path": `"/a.jsonl"`, "loop_count": `0`, "modified_files": `[]`,
		}},
	}, {
		Name:    "SessionStart",
		Payload: `{"session_id":"s1","cwd":"/repo","hook_event_name":"SessionStart","source":"resume","model":"claude-x"}`,
		Kind:    agent.SessionStart,
		Steps:   []event.Step{event.SessionStart},
		Fields: map[event.Step]map[string]string{event.SessionStart: {
			"session_id": `"s1"`, "conversation_id": `"s1"`, "source": `"resume"`, "model": `"claude-x"`, "is_background_agent": `false`,
		}},
	}, {
		Name:    "SessionEnd keeps Claude's reason in final_status",
		Payload: `{` + claudeCommon + `,"hook_event_name":"SessionEnd","reason":"prompt_input_exit"}`,
		Kind:    agent.SessionEnd,
		Steps:   []event.Step{event.SessionEnd},
		Fields:  map[event.Step]map[string]string{event.SessionEnd: {"reason": `"user_close"`, "final_status": `"prompt_input_exit"`, "session_id": `"s1"`}},
	}, {
		Name:    "PreCompact",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PreCompact","trigger":"manual","custom_instructions":""}`,
		Kind:    agent.Compact,
		Steps:   []event.Step{event.PreCompact},
		Fields:  map[event.Step]map[string]string{event.PreCompact: {"trigger": `"manual"`}},
	}, {
		Name:    "Notification has no counterpart",
		Payload: `{` + claudeCommon + `,"hook_event_name":"Notification","message":"waiting","notification_type":"idle_prompt"}`,
		Kind:    agent.None,
		Steps:   []event.Step{},
	}, {
		Name:    "PermissionRequest has no counterpart",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		Kind:    agent.None,
		Steps:   []event.Step{},
	}, {
		// A Cursor-shaped payload is what agenthooks itself would send a
		// bridged Claude hook: answering nothing ends the recursion.
		Name:    "a Cursor step name is not a Claude event",
		Payload: `{"conversation_id":"c","hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"ls"}}`,
		Kind:    agent.None,
		Steps:   []event.Step{},
	}, {
		Name:    "the event argument serves a payload without hook_event_name",
		Payload: `{"session_id":"s1","prompt":"hi"}`,
		Arg:     "UserPromptSubmit",
		Kind:    agent.Prompt,
		Steps:   []event.Step{event.BeforeSubmitPrompt},
	}})
}

func TestClaudeParseErrors(t *testing.T) {
	agenttest.RunErrorCases(t, Dialect, []agenttest.ErrorCase{
		{Name: "not JSON", Payload: `hello`, Contains: "not a JSON object"},
		{Name: "an array", Payload: `[1,2]`, Contains: "not a JSON object"},
		{Name: "null", Payload: `null`, Contains: "not a JSON object"},
		{Name: "empty", Payload: "  \n", Contains: "stdin is empty"},
		{Name: "no event", Payload: `{"session_id":"s1"}`, Contains: `"hook_event_name" is missing`},
		{Name: "event not a string", Payload: `{"hook_event_name":3}`, Contains: `"hook_event_name" must be a string`},
		{Name: "PreToolUse without tool_input", Payload: `{"hook_event_name":"PreToolUse","tool_name":"Bash"}`, Contains: `"tool_input" is missing`, Gating: true},
		{Name: "PreToolUse without tool_name", Payload: `{"hook_event_name":"PreToolUse","tool_input":{}}`, Contains: `"tool_name" is missing`, Gating: true},
		{Name: "tool_input not an object", Payload: `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"ls"}`, Contains: `"tool_input" must be a JSON object`, Gating: true},
		{Name: "PostToolUse without tool_name", Payload: `{"hook_event_name":"PostToolUse","tool_input":{}}`, Contains: `"tool_name" is missing`},
		{Name: "stop_hook_active not a bool", Payload: `{"hook_event_name":"Stop","stop_hook_active":"yes"}`, Contains: `"stop_hook_active" must be true or false`},
	})
}

const claudeBash = `{` + claudeCommon + `,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push","description":"push"}}`

func TestClaudeAnswer(t *testing.T) {
	reason := "The terminal command was rejected by a hook. no. " + agent.NoWorkaround
	agenttest.RunAnswerCases(t, Dialect, []agenttest.AnswerCase{{
		Name:    "deny reaches the model as permissionDecisionReason",
		Payload: claudeBash,
		Verdict: agenttest.Deny(reason),
		Stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + reason + `"}}`,
	}, {
		Name:    "ask is Claude's ask, its reason for the user",
		Payload: claudeBash,
		Verdict: agent.Verdict{Permission: event.Ask, UserMessage: "Really push?"},
		Stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Really push?"}}`,
	}, {
		Name:    "an allow is no objection by default",
		Payload: claudeBash,
		Verdict: agent.Verdict{Permission: event.Allow, UserMessage: "fine"},
	}, {
		Name:    "an allow is an approval with --allow-means=approve",
		Payload: claudeBash,
		Verdict: agent.Verdict{Permission: event.Allow, UserMessage: "fine"},
		Approve: true,
		Stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}`,
	}, {
		Name:    "no opinion stays silent even with approve",
		Payload: claudeBash,
		Approve: true,
	}, {
		Name:    "a rewrite is updatedInput over the whole input, without a decision",
		Payload: claudeBash,
		Verdict: agent.Verdict{UpdatedInput: map[string]any{"command": "git status", "working_directory": "/repo"}},
		Stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"git status","description":"push"}}}`,
	}, {
		Name:    "a rewrite with an approved allow",
		Payload: claudeBash,
		Verdict: agent.Verdict{Permission: event.Allow, UpdatedInput: map[string]any{"command": "git status"}},
		Approve: true,
		Stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"git status","description":"push"}}}`,
	}, {
		Name:    "a deny drops a rewrite",
		Payload: claudeBash,
		Verdict: agent.Verdict{Permission: event.Deny, Reason: "no", UpdatedInput: map[string]any{"command": "x"}},
		Stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`,
	}, {
		Name:    "PostToolUse context",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":{}}`,
		Verdict: agent.Verdict{Context: "coverage 80%", UpdatedToolOutput: json.RawMessage(`{"x":1}`)},
		Stdout:  `{"hookSpecificOutput":{"additionalContext":"coverage 80%","hookEventName":"PostToolUse"}}`,
	}, {
		Name:    "PostToolUse of an MCP tool may replace its output",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PostToolUse","tool_name":"mcp__db__q","tool_input":{},"tool_response":{}}`,
		Verdict: agent.Verdict{UpdatedToolOutput: json.RawMessage(`{"rows":[]}`)},
		Stdout:  `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"rows":[]}}}`,
	}, {
		Name:    "a blocked prompt",
		Payload: `{` + claudeCommon + `,"hook_event_name":"UserPromptSubmit","prompt":"x"}`,
		Verdict: agent.Verdict{PromptBlocked: true, PromptMessage: "Submission blocked by hook: no secrets"},
		Stdout:  `{"decision":"block","reason":"Submission blocked by hook: no secrets"}`,
	}, {
		Name:    "a follow-up keeps Claude going",
		Payload: `{` + claudeCommon + `,"hook_event_name":"Stop","stop_hook_active":false}`,
		Verdict: agent.Verdict{Followup: "run the tests"},
		Stdout:  `{"decision":"block","reason":"run the tests"}`,
	}, {
		Name:    "no follow-up lets Claude stop",
		Payload: `{` + claudeCommon + `,"hook_event_name":"Stop","stop_hook_active":true}`,
	}, {
		Name:    "a subagent's follow-up",
		Payload: `{` + claudeCommon + `,"hook_event_name":"SubagentStop","agent_type":"explore"}`,
		Verdict: agent.Verdict{Followup: "dig deeper"},
		Stdout:  `{"decision":"block","reason":"dig deeper"}`,
	}, {
		Name:    "SessionStart context, and the env for CLAUDE_ENV_FILE",
		Payload: `{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}`,
		Verdict: agent.Verdict{Context: "branch main", Env: map[string]string{"A": "1"}},
		Stdout:  `{"hookSpecificOutput":{"additionalContext":"branch main","hookEventName":"SessionStart"}}`,
		Env:     map[string]string{"A": "1"},
	}, {
		Name:    "PreCompact notice",
		Payload: `{` + claudeCommon + `,"hook_event_name":"PreCompact","trigger":"auto"}`,
		Verdict: agent.Verdict{Notice: "compacting"},
		Stdout:  `{"systemMessage":"compacting"}`,
	}, {
		Name:    "SessionEnd has nothing to say",
		Payload: `{` + claudeCommon + `,"hook_event_name":"SessionEnd","reason":"other"}`,
		Verdict: agent.Verdict{Notice: "ignored"},
	}, {
		Name:    "an event with no counterpart: empty success",
		Payload: `{` + claudeCommon + `,"hook_event_name":"Notification"}`,
	}})
}

func TestClaudeFail(t *testing.T) {
	_, err := Dialect.Parse([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash"}`), "")
	a := Dialect.Fail(err)
	// Claude treats exit 1 as a non-blocking error: the action goes ahead.
	agenttest.CheckAnswer(t, a, "", `"tool_input" is missing`, 1)
	agenttest.CheckAnswer(t, Dialect.Fail(errors.New("state store locked")), "", "agenthooks: state store locked", 1)
}
