package claude

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

func TestOutput(t *testing.T) {
	tests := []struct {
		name    string
		step    event.Step
		code    int
		stdout  string
		stderr  string
		want    map[string]any // nil: no response
		block   bool
		failure bool
	}{
		{name: "exit 0 nothing", step: event.PreToolUse, code: 0},
		{name: "pre deny nested", step: event.PreToolUse, code: 0,
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no pushing"}}`,
			want:   map[string]any{"permission": "deny", "user_message": "no pushing", "agent_message": "no pushing"}},
		{name: "pre allow keeps reason for the user only", step: event.PreToolUse, code: 0,
			stdout: `{"hookSpecificOutput":{"permissionDecision":"allow","permissionDecisionReason":"fine"}}`,
			want:   map[string]any{"permission": "allow", "user_message": "fine"}},
		{name: "pre ask", step: event.PreToolUse, code: 0,
			stdout: `{"hookSpecificOutput":{"permissionDecision":"ask"}}`,
			want:   map[string]any{"permission": "ask"}},
		{name: "pre defer is no opinion", step: event.PreToolUse, code: 0,
			stdout: `{"hookSpecificOutput":{"permissionDecision":"defer"}}`},
		{name: "pre legacy block", step: event.PreToolUse, code: 0,
			stdout: `{"decision":"block","reason":"legacy"}`,
			want:   map[string]any{"permission": "deny", "user_message": "legacy", "agent_message": "legacy"}},
		{name: "pre legacy approve", step: event.PreToolUse, code: 0,
			stdout: `{"decision":"approve"}`, want: map[string]any{"permission": "allow"}},
		{name: "pre updated input", step: event.PreToolUse, code: 0,
			stdout: `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}`,
			want:   map[string]any{"permission": "allow", "updated_input": map[string]any{"command": "ls -la"}}},
		{name: "pre continue false denies", step: event.PreToolUse, code: 0,
			stdout: `{"continue":false,"stopReason":"halt"}`,
			want:   map[string]any{"permission": "deny", "user_message": "halt", "agent_message": "halt"}},
		{name: "cursor flat form", step: event.PreToolUse, code: 0,
			stdout: `{"permission":"deny","user_message":"flat"}`,
			want:   map[string]any{"permission": "deny", "user_message": "flat"}},
		{name: "pre exit 2 stderr", step: event.PreToolUse, code: 2, stderr: "blocked: git push\n",
			want: map[string]any{"permission": "deny", "user_message": "blocked: git push", "agent_message": "blocked: git push"}, block: true},
		{name: "pre exit 2 json allow cannot override", step: event.PreToolUse, code: 2,
			stdout: `{"hookSpecificOutput":{"permissionDecision":"allow"}}`, want: map[string]any{"permission": "allow"}, block: true},
		{name: "pre exit 1 text fails open", step: event.PreToolUse, code: 1, stdout: "oops", stderr: "boom", failure: true},
		{name: "pre exit 1 with JSON decides", step: event.PreToolUse, code: 1,
			stdout: `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"x"}}`,
			want:   map[string]any{"permission": "deny", "user_message": "x", "agent_message": "x"}},
		{name: "invalid JSON is text", step: event.PreToolUse, code: 0, stdout: `{"hookSpecificOutput":`},
		{name: "prompt block", step: event.BeforeSubmitPrompt, code: 0, stdout: `{"decision":"block","reason":"no secrets"}`,
			want: map[string]any{"continue": false, "user_message": "no secrets"}},
		{name: "prompt exit 2", step: event.BeforeSubmitPrompt, code: 2, stderr: "nope", block: true},
		{name: "prompt text is ignored", step: event.BeforeSubmitPrompt, code: 0, stdout: "some context"},
		{name: "stop block is a follow-up", step: event.Stop, code: 0, stdout: `{"decision":"block","reason":"run the tests"}`,
			want: map[string]any{"followup_message": "run the tests"}},
		{name: "stop exit 2 stderr is a follow-up", step: event.Stop, code: 2, stderr: "keep going",
			want: map[string]any{"followup_message": "keep going"}},
		{name: "stop continue false wins", step: event.Stop, code: 0, stdout: `{"continue":false,"decision":"block","reason":"x"}`},
		{name: "subagent stop context", step: event.SubagentStop, code: 0,
			stdout: `{"hookSpecificOutput":{"hookEventName":"SubagentStop","additionalContext":"more"}}`,
			want:   map[string]any{"followup_message": "more"}},
		{name: "post block is context", step: event.PostToolUse, code: 0,
			stdout: `{"decision":"block","reason":"lint failed","hookSpecificOutput":{"additionalContext":"see log"}}`,
			want:   map[string]any{"additional_context": "lint failed\nsee log"}},
		{name: "post exit 2 stderr is context", step: event.PostToolUse, code: 2, stderr: "fix it",
			want: map[string]any{"additional_context": "fix it"}},
		{name: "post updated MCP output", step: event.PostToolUse, code: 0,
			stdout: `{"hookSpecificOutput":{"updatedMCPToolOutput":{"x":1}}}`,
			want:   map[string]any{"updated_mcp_tool_output": map[string]any{"x": float64(1)}}},
		{name: "session start context", step: event.SessionStart, code: 0,
			stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch main"}}`,
			want:   map[string]any{"additional_context": "branch main"}},
		{name: "session start text is context", step: event.SessionStart, code: 0, stdout: "branch main\n",
			want: map[string]any{"additional_context": "branch main"}},
		{name: "session start exit 2 is nothing", step: event.SessionStart, code: 2, stderr: "x"},
		{name: "compact block", step: event.PreCompact, code: 0, stdout: `{"decision":"block","reason":"not now"}`,
			want: map[string]any{"user_message": "not now"}},
		{name: "system message reaches the user", step: event.PreToolUse, code: 0, stdout: `{"systemMessage":"careful"}`,
			want: map[string]any{"user_message": "careful"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Output(tt.step, tt.code, []byte(tt.stdout), []byte(tt.stderr))
			if a.Block != tt.block {
				t.Errorf("block = %v, want %v", a.Block, tt.block)
			}
			if (a.Failure != "") != tt.failure {
				t.Errorf("failure = %q, want failure %v", a.Failure, tt.failure)
			}
			var got map[string]any
			if a.Response != nil {
				if err := json.Unmarshal(a.Response, &got); err != nil {
					t.Fatalf("response %s: %v", a.Response, err)
				}
				if _, err := event.ParseResponse(tt.step, a.Response); err != nil {
					t.Errorf("response %s is not valid for %s: %v", a.Response, tt.step, err)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("response = %v, want %v", got, tt.want)
			}
		})
	}
}
