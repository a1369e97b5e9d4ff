package engine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	// The registry defines Claude Code's settings files as sources.
	"github.com/agenthooks/agenthooks/agent/claude"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
)

// writeClaude writes the workspace's .claude/settings.json and trusts it.
func (f *fixture) writeClaude(settings string) {
	f.t.Helper()
	p := claude.ProjectFile(f.root)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(settings), 0o644); err != nil {
		f.t.Fatal(err)
	}
	f.trusted[p] = true
}

// Hooks of Claude Code settings files run as Cursor runs them: matched by
// Claude Code's names, fed Claude Code's payload, read by Claude Code's
// exit-code and output rules.
func TestClaudeSettingsHooks(t *testing.T) {
	f := newFixture(t)
	seen := filepath.Join(f.dir, "seen.json")
	guard := f.script("guard.sh", `cat > `+seen+`
if grep -q 'git push' `+seen+`; then echo "no pushing from claude settings" >&2; exit 2; fi`)
	stop := f.script("stop.sh", `echo '{"decision":"block","reason":"run the tests first"}'`)
	start := f.script("start.sh", `echo "export FROM_CLAUDE='a b'" >> "$CLAUDE_ENV_FILE"; echo 'branch: main'`)
	f.writeClaude(`{
  "permissions": {"deny": []},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "` + guard + `"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "` + stop + `"}]}],
    "SessionStart": [{"matcher": "startup|resume", "hooks": [{"type": "command", "command": "` + start + `"}]}]
  }
}`)
	e := f.engine()

	d := run(t, e, event.PreToolUse, `{"conversation_id":"c1","tool_name":"Shell","tool_input":{"command":"git push origin main"},"tool_use_id":"t1","cwd":"`+f.root+`"}`)
	if d.Permission != event.Deny || !strings.Contains(d.ModelMessage, "no pushing from claude settings") {
		t.Fatalf("push: permission %q, model message %q, said %q", d.Permission, d.ModelMessage, said(d))
	}
	payload, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"hook_event_name":"PreToolUse"`, `"tool_name":"Bash"`, `"session_id":"c1"`, `"conversation_id":"c1"`} {
		if !strings.Contains(string(payload), want) {
			t.Errorf("the Claude Code hook's payload lacks %s: %s", want, payload)
		}
	}

	d = run(t, e, event.PreToolUse, `{"conversation_id":"c1","tool_name":"Shell","tool_input":{"command":"ls"},"tool_use_id":"t2"}`)
	if d.Permission != "" || len(d.Hooks) != 1 {
		t.Errorf("ls: permission %q, %d hooks", d.Permission, len(d.Hooks))
	}
	os.Remove(seen)
	d = run(t, e, event.PreToolUse, `{"conversation_id":"c1","tool_name":"Read","tool_input":{"file_path":"/x"},"tool_use_id":"t3"}`)
	if len(d.Hooks) != 0 {
		t.Errorf("a Bash matcher ran for Read: %q", said(d))
	}

	// No loop limit for Claude Code hooks: the tenth follow-up in a row
	// is still given.
	d = run(t, e, event.Stop, `{"conversation_id":"c2","status":"completed","loop_count":10}`)
	if d.FollowupMessage != "run the tests first" {
		t.Errorf("stop: follow-up %q, said %q", d.FollowupMessage, said(d))
	}

	d = run(t, e, event.SessionStart, `{"conversation_id":"c3","session_id":"c3"}`)
	if d.Env["FROM_CLAUDE"] != "a b" || d.AdditionalContext != "branch: main" {
		t.Errorf("session start: env %q, context %q, said %q", d.Env, d.AdditionalContext, said(d))
	}
}

// A Cursor hook's deny is not loosened by a Claude Code hook's allow, and
// the Cursor hook's message comes first: Claude Code sources have the
// lowest priority.
func TestClaudeSettingsPriority(t *testing.T) {
	f := newFixture(t)
	deny := f.script("deny.sh", `echo '{"permission":"deny","user_message":"cursor says no","agent_message":"cursor says no"}'`)
	allow := f.script("allow.sh", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`)
	ask := f.script("ask.sh", `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"claude says no"}}'`)
	f.write(config.User, map[event.Step][]hk{event.PreToolUse: {{"command": deny, "matcher": "Shell"}}})
	f.writeClaude(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "` + allow + `"},
		{"type": "command", "command": "` + ask + `"}]}]}}`)
	d := run(t, f.engine(), event.PreToolUse, `{"tool_name":"Shell","tool_input":{"command":"rm -rf /"}}`)
	if d.Permission != event.Deny || !strings.HasPrefix(d.UserMessage, "cursor says no") || !strings.Contains(d.UserMessage, "claude says no") {
		t.Errorf("permission %q, user message %q, said %q", d.Permission, d.UserMessage, said(d))
	}
	if got := len(d.Hooks); got != 3 {
		t.Errorf("%d hooks ran, want 3", got)
	}
}
