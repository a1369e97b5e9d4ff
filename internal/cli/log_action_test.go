package cli

import (
	"encoding/json"
	"testing"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/state"
)

// TestActionOf checks what log shows of each kind of step: what the
// agent tried, not the hook.
func TestActionOf(t *testing.T) {
	for _, c := range []struct{ step, payload, want string }{
		{"beforeShellExecution", `{"command":"rm -rf /","cwd":"/p"}`, "rm -rf /"},
		{"afterShellExecution", `{"command":"make","output":"ok"}`, "make"},
		{"beforeReadFile", `{"file_path":"/p/.env","content":"A=[REDACTED:env-value]"}`, "/p/.env"},
		{"afterFileEdit", `{"file_path":"/p/main.go","edits":[]}`, "/p/main.go"},
		{"preToolUse", `{"tool_name":"Shell","tool_input":{"command":"git push","timeout":5}}`, "Shell git push"},
		{"preToolUse", `{"tool_name":"Read","tool_input":{"file_path":"/p/a.txt"}}`, "Read /p/a.txt"},
		{"preToolUse", `{"tool_name":"WebFetch","tool_input":{"url":"https://example.com"}}`, "WebFetch https://example.com"},
		{"preToolUse", `{"tool_name":"TodoWrite","tool_input":{"todos":[]}}`, "TodoWrite"},
		{"beforeMCPExecution", `{"tool_name":"search","tool_input":"{\"query\":\"cats\"}"}`, "search cats"},
		{"beforeSubmitPrompt", `{"prompt":"please delete every file in the repository and push it"}`, "please delete every file in the repository and …"},
		{"stop", `{"status":"completed","loop_count":0}`, "status completed"},
		{"sessionStart", `{"session_id":"s"}`, ""},
		{"beforeShellExecution", ``, ""},
		{"beforeShellExecution", `[1]`, ""},
	} {
		e := state.Entry{Record: audit.Record{Step: c.step, Payload: json.RawMessage(c.payload)}}
		if got := actionOf(e); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.step, c.payload, got, c.want)
		}
	}
	e := state.Entry{Record: audit.Record{Step: "beforeShellExecution", Agent: "claude", Payload: json.RawMessage(`{"command":"rm -rf /"}`)}}
	if got := actionOf(e); got != "claude: rm -rf /" {
		t.Errorf("a step from Claude Code: %q, want %q", got, "claude: rm -rf /")
	}
}
