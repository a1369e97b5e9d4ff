package dialect

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

const codexCommon = `"session_id":"x1","turn_id":"turn-3","transcript_path":null,"cwd":"/repo","model":"gpt-5","permission_mode":"default"`

const codexPatch = `*** Begin Patch\n*** Add File: new.txt\n+one\n+two\n*** Update File: src/a.go\n@@ func a()\n ctx\n-old\n+new\n*** Delete File: gone.txt\n*** End Patch`

func TestCodexParse(t *testing.T) {
	runParseCases(t, Codex, []parseCase{{
		name:    "PreToolUse Bash",
		payload: `{` + codexCommon + `,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"},"tool_use_id":"c1"}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeShellExecution},
		fields: map[event.Step]map[string]string{
			event.PreToolUse:           {"tool_name": `"Shell"`, "generation_id": `"turn-3"`, "model": `"gpt-5"`, "tool_use_id": `"c1"`},
			event.BeforeShellExecution: {"command": `"git push"`},
		},
		absent: map[event.Step][]string{event.PreToolUse: {"transcript_path"}},
	}, {
		name:    "PreToolUse apply_patch is Write",
		payload: `{` + codexCommon + `,"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"` + codexPatch + `"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse},
		fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"Write"`}},
	}, {
		name:    "PreToolUse of an MCP tool",
		payload: `{` + codexCommon + `,"hook_event_name":"PreToolUse","tool_name":"mcp__fs__read","tool_input":{"p":"x"}}`,
		kind:    Tool,
		steps:   []event.Step{event.PreToolUse, event.BeforeMCPExecution},
		fields:  map[event.Step]map[string]string{event.PreToolUse: {"tool_name": `"MCP:read"`}},
	}, {
		name:    "PostToolUse apply_patch: one afterFileEdit per added or updated file",
		payload: `{` + codexCommon + `,"hook_event_name":"PostToolUse","tool_name":"apply_patch","tool_input":{"command":"` + codexPatch + `"},"tool_response":"Success"}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterFileEdit, event.AfterFileEdit},
		fields: map[event.Step]map[string]string{
			event.PostToolUse:   {"tool_name": `"Write"`, "tool_output": `"\"Success\""`},
			event.AfterFileEdit: {"file_path": `"/repo/new.txt"`, "edits": `[{"old_string":"","new_string":"one\ntwo"}]`},
		},
	}, {
		name:    "PostToolUse Bash",
		payload: `{` + codexCommon + `,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"a\nb"}`,
		kind:    PostTool,
		steps:   []event.Step{event.PostToolUse, event.AfterShellExecution},
		fields:  map[event.Step]map[string]string{event.AfterShellExecution: {"output": `"a\nb"`}},
	}, {
		name:    "UserPromptSubmit",
		payload: `{` + codexCommon + `,"hook_event_name":"UserPromptSubmit","prompt":"go"}`,
		kind:    Prompt,
		steps:   []event.Step{event.BeforeSubmitPrompt},
	}, {
		name:    "Stop",
		payload: `{` + codexCommon + `,"hook_event_name":"Stop","stop_hook_active":true,"last_assistant_message":"m"}`,
		kind:    Stop,
		steps:   []event.Step{event.Stop},
		absent:  map[event.Step][]string{event.Stop: {"loop_count"}},
	}, {
		name:    "SubagentStop",
		payload: `{` + codexCommon + `,"hook_event_name":"SubagentStop","agent_id":"a","agent_type":"worker","stop_hook_active":false}`,
		kind:    SubagentStop,
		steps:   []event.Step{event.SubagentStop},
		fields:  map[event.Step]map[string]string{event.SubagentStop: {"subagent_type": `"worker"`}},
	}, {
		name:    "SessionStart",
		payload: `{` + codexCommon + `,"hook_event_name":"SessionStart","source":"startup"}`,
		kind:    SessionStart,
		steps:   []event.Step{event.SessionStart},
	}, {
		name:    "PreCompact",
		payload: `{` + codexCommon + `,"hook_event_name":"PreCompact","trigger":"auto"}`,
		kind:    Compact,
		steps:   []event.Step{event.PreCompact},
	}, {
		name:    "SessionEnd",
		payload: `{` + codexCommon + `,"hook_event_name":"SessionEnd","reason":"exit"}`,
		kind:    SessionEnd,
		steps:   []event.Step{event.SessionEnd},
	}, {
		name:    "PermissionRequest has no counterpart",
		payload: `{` + codexCommon + `,"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		kind:    None,
		steps:   []event.Step{},
	}, {
		name:    "PostCompact has no counterpart",
		payload: `{` + codexCommon + `,"hook_event_name":"PostCompact"}`,
		kind:    None,
		steps:   []event.Step{},
	}})
}

func TestCodexParseErrors(t *testing.T) {
	runErrorCases(t, Codex, []errorCase{
		{name: "not JSON", payload: `nope`, contains: "not a JSON object"},
		{name: "no event", payload: `{"cwd":"/"}`, contains: `"hook_event_name" is missing`},
		{name: "PreToolUse tool_input not an object", payload: `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":[1]}`, contains: `"tool_input" must be a JSON object`, gating: true},
	})
}

const codexBash = `{` + codexCommon + `,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}`

func TestCodexAnswer(t *testing.T) {
	runAnswerCases(t, Codex, []answerCase{{
		name:    "deny",
		payload: codexBash,
		verdict: deny("no push"),
		stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no push"}}`,
	}, {
		name:    "Codex rejects ask, so an ask is a deny that says to ask the user",
		payload: codexBash,
		verdict: Verdict{Permission: event.Ask, UserMessage: "confirm push"},
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":` +
			`"A hook asks for the user's confirmation before this action, and Codex hooks cannot ask for it, so the action was not run. The hook says: confirm push. Ask the user to confirm before trying again."}}`,
	}, {
		name:    "Codex rejects a bare allow, so even approve says nothing",
		payload: codexBash,
		verdict: Verdict{Permission: event.Allow},
		approve: true,
	}, {
		name:    "a rewrite needs allow in Codex",
		payload: codexBash,
		verdict: Verdict{UpdatedInput: map[string]any{"command": "git status"}},
		stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"git status"}}}`,
	}, {
		name:    "PostToolUse context and an MCP output",
		payload: `{` + codexCommon + `,"hook_event_name":"PostToolUse","tool_name":"mcp__a__b","tool_input":{},"tool_response":{}}`,
		verdict: Verdict{Context: "c", UpdatedToolOutput: json.RawMessage(`"x"`)},
		stdout:  `{"hookSpecificOutput":{"additionalContext":"c","hookEventName":"PostToolUse","updatedMCPToolOutput":"x"}}`,
	}, {
		name:    "a blocked prompt",
		payload: `{` + codexCommon + `,"hook_event_name":"UserPromptSubmit","prompt":"x"}`,
		verdict: Verdict{PromptBlocked: true},
		stdout:  `{"decision":"block","reason":"Submission blocked by hook"}`,
	}, {
		name:    "a follow-up",
		payload: `{` + codexCommon + `,"hook_event_name":"Stop","stop_hook_active":false}`,
		verdict: Verdict{Followup: "more"},
		stdout:  `{"decision":"block","reason":"more"}`,
	}, {
		name:    "SessionStart context and env",
		payload: `{` + codexCommon + `,"hook_event_name":"SessionStart","source":"startup"}`,
		verdict: Verdict{Context: "c", Env: map[string]string{"K": "v"}},
		stdout:  `{"hookSpecificOutput":{"additionalContext":"c","hookEventName":"SessionStart"}}`,
		env:     map[string]string{"K": "v"},
	}, {
		name:    "PreCompact notice",
		payload: `{` + codexCommon + `,"hook_event_name":"PreCompact","trigger":"manual"}`,
		verdict: Verdict{Notice: "n"},
		stdout:  `{"systemMessage":"n"}`,
	}})
}

func TestCodexFail(t *testing.T) {
	_, err := Codex.Parse([]byte(`[]`), "")
	checkAnswer(t, Codex.Fail(err), "", "not a JSON object", 1)
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
