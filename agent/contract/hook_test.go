package contract

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

func TestContractHookInput(t *testing.T) {
	tests := []struct {
		payload string
		step    event.Step
		want    string
	}{
		{`{"hook_event_name":"beforeShellExecution","command":"ls","cwd":"/w"}`, event.BeforeShellExecution,
			`{"tool_input":{"command":"ls","cwd":"/w"},"tool_name":"Shell"}`},
		{`{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"ls"}}`, event.PreToolUse,
			`{"tool_input":{"command":"ls"},"tool_name":"Shell"}`},
		{`{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":{"file_path":"/a","content":"x"}}`, event.PreToolUse,
			`{"tool_input":{"content":"x","contents":"x","file_path":"/a","path":"/a"},"tool_name":"Write"}`},
		{`{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":{"file_path":"/a","old_string":"x","new_string":"y"}}`, event.PreToolUse,
			`{"tool_input":{"file_path":"/a","new_string":"y","old_string":"x","path":"/a"},"tool_name":"Edit"}`},
		{`{"hook_event_name":"beforeReadFile","file_path":"/a","content":"c"}`, event.BeforeReadFile,
			`{"tool_input":{"contents":"c","path":"/a"},"tool_name":"Read"}`},
		{`{"hook_event_name":"beforeMCPExecution","tool_name":"search","tool_input":"{\"q\":1}"}`, event.BeforeMCPExecution,
			`{"tool_input":{"q":1},"tool_name":"MCP:search"}`},
		{`{"hook_event_name":"stop","conversation_id":"c","loop_count":1,"workspace_roots":["/w"]}`, event.Stop,
			`{"tool_input":{"conversation_id":"c","cwd":"/w","hook_event_name":"stop","loop_count":1,"session_id":"c","stop_hook_active":true,"workspace_roots":["/w"]},"tool_name":"Stop"}`},
		{`{"hook_event_name":"beforeSubmitPrompt","prompt":"hi","conversation_id":"c"}`, event.BeforeSubmitPrompt,
			`{"tool_input":{"conversation_id":"c","hook_event_name":"beforeSubmitPrompt","prompt":"hi","session_id":"c"},"tool_name":"beforeSubmitPrompt"}`},
	}
	for _, tt := range tests {
		step, got, err := HookInput([]byte(tt.payload))
		if err != nil || step != tt.step {
			t.Errorf("%s: step %q, err %v", tt.payload, step, err)
			continue
		}
		var g, w any
		_ = json.Unmarshal(got, &g)
		_ = json.Unmarshal([]byte(tt.want), &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s:\n got  %s\n want %s", tt.payload, got, tt.want)
		}
	}
	for _, bad := range []string{``, `[]`, `{"hook_event_name":"nope"}`, `{}`} {
		if _, _, err := HookInput([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestContractHookAnswer(t *testing.T) {
	tests := []struct {
		step           event.Step
		code           int
		stdout, stderr string
		want           string
		exit           int
	}{
		{event.BeforeShellExecution, 0, `{"decision":"deny","reason":"no"}`, "", `{"agent_message":"no","permission":"deny","user_message":"no"}`, 0},
		{event.PreToolUse, 2, "", "blocked\n", `{"agent_message":"blocked","permission":"deny","user_message":"blocked"}`, 2},
		{event.PreToolUse, 2, `{"decision":"allow"}`, "", `{"permission":"deny"}`, 2},
		{event.BeforeShellExecution, 0, `{"decision":"allow"}`, "", `{"permission":"allow"}`, 0},
		{event.BeforeShellExecution, 0, `not json`, "", `{}`, 0},
		{event.BeforeShellExecution, 0, ``, "", `{}`, 0},
		{event.BeforeShellExecution, 1, `{"decision":"deny"}`, "oops", ``, 1},
		{event.BeforeSubmitPrompt, 0, `{"decision":"deny","reason":"secret"}`, "", `{"continue":false,"user_message":"secret"}`, 0},
		{event.BeforeSubmitPrompt, 2, ``, "no", `{"continue":false,"user_message":"no"}`, 2},
		{event.BeforeReadFile, 0, `{"decision":"deny","reason":"env"}`, "", `{"permission":"deny","user_message":"env"}`, 0},
		{event.Stop, 0, `{"reason":"again"}`, "", `{"followup_message":"again"}`, 0},
		{event.Stop, 2, ``, "x", `{}`, 0},
		{event.SessionStart, 0, `{"message":"ctx"}`, "", `{"additional_context":"ctx"}`, 0},
		{event.PreCompact, 0, `{"message":"note"}`, "", `{"user_message":"note"}`, 0},
		{event.AfterFileEdit, 0, `{"decision":"deny"}`, "", `{}`, 0},
	}
	for _, tt := range tests {
		out, _, exit := HookAnswer(tt.step, tt.code, []byte(tt.stdout), []byte(tt.stderr))
		if got := string(trimNL(out)); got != tt.want || exit != tt.exit {
			t.Errorf("%s exit %d %q: got %s exit %d, want %s exit %d", tt.step, tt.code, tt.stdout, got, exit, tt.want, tt.exit)
		}
	}
}

func trimNL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		return b[:n-1]
	}
	return b
}
