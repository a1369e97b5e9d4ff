package claude

import (
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

// BenchmarkTranslate is what a Claude Code settings hook costs on top of
// its process: the payload into Claude Code's shape and the answer back.
func BenchmarkTranslate(b *testing.B) {
	payload := []byte(`{"conversation_id":"c","generation_id":"g","model":"m","cursor_version":"1","workspace_roots":["/w"],"user_email":null,"transcript_path":null,"tool_name":"Shell","tool_input":{"command":"ls -la"},"tool_use_id":"t","cwd":"/w","hook_event_name":"preToolUse"}`)
	out := []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Input(event.PreToolUse, payload); err != nil {
			b.Fatal(err)
		}
		if a := Output(event.PreToolUse, 0, out, nil); a.Response == nil {
			b.Fatal("no response")
		}
	}
}
