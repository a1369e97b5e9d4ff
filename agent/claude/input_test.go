package claude

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

func TestInput(t *testing.T) {
	tests := []struct {
		name string
		step event.Step
		in   string
		want map[string]any // fields that must be present with these values
	}{
		{"shell", event.PreToolUse,
			`{"conversation_id":"c1","tool_name":"Shell","tool_input":{"command":"git push","working_directory":"/w"},"tool_use_id":"t1","cwd":"/w","hook_event_name":"preToolUse"}`,
			map[string]any{"hook_event_name": "PreToolUse", "session_id": "c1", "tool_name": "Bash", "cwd": "/w",
				"tool_input": map[string]any{"command": "git push", "working_directory": "/w"}, "tool_use_id": "t1",
				"conversation_id": "c1", "permission_mode": "default"}},
		{"edit", event.PreToolUse,
			`{"tool_name":"Write","tool_input":{"file_path":"/w/a","old_string":"a","new_string":"b"},"workspace_roots":["/w"]}`,
			map[string]any{"tool_name": "Edit", "cwd": "/w"}},
		{"write", event.PreToolUse, `{"tool_name":"Write","tool_input":{"file_path":"/w/a","content":"x"}}`,
			map[string]any{"tool_name": "Write"}},
		{"mcp with server", event.PreToolUse, `{"tool_name":"MCP:create_issue","server":"github","tool_input":{}}`,
			map[string]any{"tool_name": "mcp__github__create_issue"}},
		{"post tool response", event.PostToolUse, `{"tool_name":"Read","tool_input":{},"tool_output":"{\"ok\":true}"}`,
			map[string]any{"hook_event_name": "PostToolUse", "tool_response": map[string]any{"ok": true}}},
		{"post text response", event.PostToolUse, `{"tool_name":"Shell","tool_input":{},"tool_output":"plain"}`,
			map[string]any{"tool_response": "plain", "tool_name": "Bash"}},
		{"failure", event.PostToolUseFailure, `{"tool_name":"Shell","tool_input":{},"error_message":"exit 1"}`,
			map[string]any{"error": "exit 1", "hook_event_name": "PostToolUseFailure"}},
		{"prompt", event.BeforeSubmitPrompt, `{"prompt":"hi","conversation_id":"c"}`,
			map[string]any{"hook_event_name": "UserPromptSubmit", "prompt": "hi", "session_id": "c"}},
		{"stop first", event.Stop, `{"status":"completed","loop_count":0}`,
			map[string]any{"hook_event_name": "Stop", "stop_hook_active": false}},
		{"stop after follow-up", event.Stop, `{"status":"completed","loop_count":2}`,
			map[string]any{"stop_hook_active": true}},
		{"subagent stop", event.SubagentStop, `{"subagent_type":"explore","subagent_id":"s1","loop_count":0}`,
			map[string]any{"agent_type": "explore", "agent_id": "s1", "hook_event_name": "SubagentStop"}},
		{"session start", event.SessionStart, `{"session_id":"s","conversation_id":"c"}`,
			map[string]any{"session_id": "s", "source": "startup", "hook_event_name": "SessionStart"}},
		{"session end", event.SessionEnd, `{"reason":"user_close"}`,
			map[string]any{"reason": "prompt_input_exit", "hook_event_name": "SessionEnd"}},
		{"compact", event.PreCompact, `{"trigger":"auto"}`,
			map[string]any{"trigger": "auto", "custom_instructions": "", "hook_event_name": "PreCompact"}},
		{"no HTML escaping", event.BeforeSubmitPrompt, `{"prompt":"a 2>&1 <b>"}`,
			map[string]any{"prompt": "a 2>&1 <b>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Input(tt.step, []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%s: %v", out, err)
			}
			for k, v := range tt.want {
				if !reflect.DeepEqual(got[k], v) {
					t.Errorf("%s = %#v, want %#v (payload %s)", k, got[k], v, out)
				}
			}
		})
	}
	if _, err := Input(event.Stop, []byte(`[1]`)); err == nil {
		t.Error("a payload that is not an object was accepted")
	}
}

func TestTargets(t *testing.T) {
	f := func(s string) map[string]json.RawMessage {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		step event.Step
		in   string
		want []string
		ok   bool
	}{
		{event.PreToolUse, `{"tool_name":"Shell"}`, []string{"Bash", "Shell"}, true},
		{event.PreToolUse, `{"tool_name":"Write","tool_input":{"old_string":"a"}}`, []string{"Edit", "Write", "MultiEdit", "NotebookEdit"}, true},
		{event.PostToolUse, `{"tool_name":"Read"}`, []string{"Read"}, true},
		{event.PreToolUse, `{"tool_name":"Task"}`, []string{"Task", "Agent"}, true},
		{event.PreToolUse, `{"tool_name":"MCP:search","server":"gh"}`, []string{"mcp__gh__search", "MCP:search"}, true},
		{event.SubagentStop, `{"subagent_type":"explore"}`, []string{"explore"}, true},
		{event.SessionStart, `{}`, []string{"startup"}, true},
		{event.PreCompact, `{"trigger":"manual"}`, []string{"manual"}, true},
		{event.Stop, `{}`, nil, false},
		{event.BeforeSubmitPrompt, `{}`, nil, false},
	}
	for _, tt := range tests {
		got, ok := Targets(tt.step, f(tt.in))
		if ok != tt.ok || !slices.Equal(got, tt.want) {
			t.Errorf("Targets(%s, %s) = %q, %v; want %q, %v", tt.step, tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestNamesRoundTrip(t *testing.T) {
	for _, e := range Events() {
		s, ok := Step(e)
		if !ok || Event(s) != e {
			t.Errorf("%s -> %s -> %s", e, s, Event(s))
		}
	}
	if _, ok := Step("Notification"); ok {
		t.Error("Notification has no Cursor step")
	}
	if Event(event.AfterAgentThought) != "" {
		t.Error("afterAgentThought has no Claude Code event")
	}
}
