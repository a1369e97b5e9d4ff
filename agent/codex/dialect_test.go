package codex

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agenttest"
	"github.com/agenthooks/agenthooks/event"
)

const codexCommon = `"session_id":"x1","turn_id":"turn-3","transcript_path":null,"cwd":"/repo","model":"gpt-5","permission_mode":"default"`

const codexPatch = `*** Begin Patch\n*** Add File: new.txt\n+one\n+two\n*** Update File: src/a.go\n@@ func a()\n ctx\n-old\n+new\n*** Delete File: gone.txt\n*** End Patch`

func TestCodexParse(t *testing.T) {
	agenttest.RunParseCases(t, Dialect, []agenttest.ParseCase{{
		Name:    "PreToolUse Bash",
		Payload: `{` + codexCommon + `,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"},"tool_use_id":"c1"}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		Fields: map[event.Step]map[string]string{
			event.PreToolUse:           {"tool_name": `"Shell"`, "generation_id": `"turn-3"`, "model": `"gpt-5"`, "tool_use_id": `"c1"`},
			event.BeforeShellExecution: {"command": `"git push"`},
		},
		Absent: map[event.Step][]string{event.PreToolUse: {"transcript_path"}},
	}, {
		Name:    "PreToolUse apply_patch is Write",
		Payload: `{` + codexCommon + `,"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"` + codexPatch + `"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse},
		Fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Write"`}},
	}, {
		Name:    "PreToolUse of an MCP tool",
		Payload: `{` + codexCommon + `,"hook_event_name":"PreToolUse","tool_name":"mcp__fs__read","tool_input":{"p":"x"}}`,
		Kind:    agent.Tool,
		Steps:   []event.Step{event.PreToolUse, event.BeforeMCPExecution},
		Fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"MCP:read"`}},
	}, {
		Name:    "PostToolUse apply_patch: one afterFileEdit per added or updated file",
		Payload: `{` + codexCommon + `,"hook_event_name":"PostToolUse","tool_name":"apply_patch","tool_input":{"command":"` + codexPatch + `"},"tool_response":"Success"}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterFileEdit, event.AfterFileEdit},
		Fields: map[event.Step]map[string]string{
			event.PostToolUse:   {"tool_name": `"Write"`, "tool_output": `"\"Success\""`},
			event.AfterFileEdit: {"file_path": `"/repo/new.txt"`, "edits": `[{"old_string":"","new_string":"one\ntwo"}]`},
		},
	}, {
		Name:    "PostToolUse Bash",
		Payload: `{` + codexCommon + `,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"a\nb"}`,
		Kind:    agent.PostTool,
		Steps:   []event.Step{event.PostToolUse, event.AfterShellExecution},
		Fields:  map[event.Step]map[string]string{event.AfterShellExecution: {"output": `"a\nb"`}},
	}, {
		Name:    "UserPromptSubmit",
		Payload: `{` + codexCommon + `,"hook_event_name":"UserPromptSubmit","prompt":"go"}`,
		Kind:    agent.Prompt,
		Steps:   []event.Step{event.BeforeSubmitPrompt},
	}, {
		Name:    "Stop",
		Payload: `{` + codexCommon + `,"hook_event_name":"Stop","stop_hook_active":true,"last_assistant_message":"m"}`,
		Kind:    agent.Stop,
		Steps:   []event.Step{event.Stop},
		Absent:  map[event.Step][]string{event.Stop: {"loop_count"}},
	}, {
		Name:    "SubagentStop",
		Payload: `{` + codexCommon + `,"hook_event_name":"SubagentStop","agent_id":"a","agent_type":"worker","stop_hook_active":false}`,
		Kind:    agent.SubagentStop,
		Steps:   []event.Step{event.SubagentStop},
		Fields:  map[event.Step]map[string]string{event.SubagentStop: {"subagent_type": `"worker"`}},
	}, {
		Name:    "SessionStart",
		Payload: `{` + codexCommon + `,"hook_event_name":"SessionStart","source":"startup"}`,
		Kind:    agent.SessionStart,
		Steps:   []event.Step{event.SessionStart},
	}, {
		Name:    "PreCompact",
		Payload: `{` + codexCommon + `,"hook_event_name":"PreCompact","trigger":"auto"}`,
		Kind:    agent.Compact,
		Steps:   []event.Step{event.PreCompact},
	}, {
		Name:    "SessionEnd",
		Payload: `{` + codexCommon + `,"hook_event_name":"SessionEnd","reason":"exit"}`,
		Kind:    agent.SessionEnd,
		Steps:   []event.Step{event.SessionEnd},
	}, {
		Name:    "PermissionRequest has no counterpart",
		Payload: `{` + codexCommon + `,"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		Kind:    agent.None,
		Steps:   []event.Step{},
	}, {
		Name:    "PostCompact has no counterpart",
		Payload: `{` + codexCommon + `,"hook_event_name":"PostCompact"}`,
		Kind:    agent.None,
		Steps:   []event.Step{},
	}})
}

func TestCodexParseErrors(t *testing.T) {
	agenttest.RunErrorCases(t, Dialect, []agenttest.ErrorCase{
		{Name: "not JSON", Payload: `nope`, Contains: "not a JSON object"},
		{Name: "no event", Payload: `{"cwd":"/"}`, Contains: `"hook_event_name" is missing`},
		{Name: "PreToolUse tool_input not an object", Payload: `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":[1]}`, Contains: `"tool_input" must be a JSON object`, Gating: true},
	})
}

const codexBash = `{` + codexCommon + `,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}`

func TestCodexAnswer(t *testing.T) {
	agenttest.RunAnswerCases(t, Dialect, []agenttest.AnswerCase{{
		Name:    "deny",
		Payload: codexBash,
		Verdict: agenttest.Deny("no push"),
		Stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no push"}}`,
	}, {
		Name:    "Codex rejects ask, so an ask is a deny that says to ask the user",
		Payload: codexBash,
		Verdict: agent.Verdict{Permission: event.Ask, UserMessage: "confirm push"},
		Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":` +
			`"A hook asks for the user's confirmation before this action, and Codex hooks cannot ask for it, so the action was not run. The hook says: confirm push. Ask the user to confirm before trying again."}}`,
	}, {
		Name:    "Codex rejects a bare allow, so even approve says nothing",
		Payload: codexBash,
		Verdict: agent.Verdict{Permission: event.Allow},
		Approve: true,
	}, {
		Name:    "a rewrite needs allow in Codex",
		Payload: codexBash,
		Verdict: agent.Verdict{UpdatedInput: map[string]any{"command": "git status"}},
		Stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"git status"}}}`,
	}, {
		Name:    "PostToolUse context and an MCP output",
		Payload: `{` + codexCommon + `,"hook_event_name":"PostToolUse","tool_name":"mcp__a__b","tool_input":{},"tool_response":{}}`,
		Verdict: agent.Verdict{Context: "c", UpdatedToolOutput: json.RawMessage(`"x"`)},
		Stdout:  `{"hookSpecificOutput":{"additionalContext":"c","hookEventName":"PostToolUse","updatedMCPToolOutput":"x"}}`,
	}, {
		Name:    "a blocked prompt",
		Payload: `{` + codexCommon + `,"hook_event_name":"UserPromptSubmit","prompt":"x"}`,
		Verdict: agent.Verdict{PromptBlocked: true},
		Stdout:  `{"decision":"block","reason":"Submission blocked by hook"}`,
	}, {
		Name:    "a follow-up",
		Payload: `{` + codexCommon + `,"hook_event_name":"Stop","stop_hook_active":false}`,
		Verdict: agent.Verdict{Followup: "more"},
		Stdout:  `{"decision":"block","reason":"more"}`,
	}, {
		Name:    "SessionStart context and env",
		Payload: `{` + codexCommon + `,"hook_event_name":"SessionStart","source":"startup"}`,
		Verdict: agent.Verdict{Context: "c", Env: map[string]string{"K": "v"}},
		Stdout:  `{"hookSpecificOutput":{"additionalContext":"c","hookEventName":"SessionStart"}}`,
		Env:     map[string]string{"K": "v"},
	}, {
		Name:    "PreCompact notice",
		Payload: `{` + codexCommon + `,"hook_event_name":"PreCompact","trigger":"manual"}`,
		Verdict: agent.Verdict{Notice: "n"},
		Stdout:  `{"systemMessage":"n"}`,
	}})
}

func TestCodexFail(t *testing.T) {
	_, err := Dialect.Parse([]byte(`[]`), "")
	agenttest.CheckAnswer(t, Dialect.Fail(err), "", "not a JSON object", 1)
}

func TestParsePatch(t *testing.T) {
	got := parsePatch("*** Begin Patch\n" +
		"*** Add File: a.txt\n+x\n+y\n" +
		"*** Update File: b.go\n*** Move to: c.go\n@@ first\n keep\n-gone\n+here\n@@ second\n-1\n+2\n*** End of File\n" +
		"*** Delete File: d\n" +
		"*** Update File: e\r\n@@\r\n-p\r\n+q\r\n" +
		"*** End Patch\n")
	want := []patchFile{
		{path: "a.txt", edits: []event.FileEdit{{OldString: "", NewString: "x\ny"}}},
		{path: "c.go", edits: []event.FileEdit{{OldString: "keep\ngone", NewString: "keep\nhere"}, {OldString: "1", NewString: "2"}}},
		{path: "e", edits: []event.FileEdit{{OldString: "p", NewString: "q"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parsePatch =\n %+v\nwant\n %+v", got, want)
	}
	if got := parsePatch("not a patch"); len(got) != 0 {
		t.Errorf("parsePatch(not a patch) = %+v, want none", got)
	}
}
