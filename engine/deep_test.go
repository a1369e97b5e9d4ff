package engine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// deepInput is a Shell tool input holding n nested arrays: encoding/json
// refuses it past 10000 levels, and a payload the engine could not read
// would let the command through.
func deepInput(n int) string {
	return `{"command":"git push","x":` + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) + `}`
}

// TestDeepToolInputRunsHooks: a tool input nested 10,001 and 100,000
// levels deep is read; the hooks run, get the bytes as sent (or, when the
// engine adds fields, the bytes as sent with the fields after them), and
// their decision stands.
func TestDeepToolInputRunsHooks(t *testing.T) {
	for _, n := range []int{10_001, 100_000} {
		f := newFixture(t)
		seen := filepath.Join(f.dir, "seen.json")
		f.write(config.User, map[event.Step][]hk{event.PreToolUse: {{
			"command": f.script("deny.sh", `cat > `+seen+`; echo '{"permission":"deny","user_message":"no push"}'`),
		}}})
		e := f.engine()
		read := func() string {
			t.Helper()
			b, err := os.ReadFile(seen)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}

		// Every common field sent: the hook gets the very bytes.
		full := `{"conversation_id":"c1","generation_id":"g1","model":"m","cursor_version":"1.0",` +
			`"workspace_roots":["` + f.root + `"],"user_email":"u@example.com","transcript_path":"/t",` +
			`"hook_event_name":"preToolUse","tool_name":"Shell","tool_use_id":"t1","tool_input":` + deepInput(n) + `}`
		d := run(t, e, event.PreToolUse, full)
		if d.Permission != event.Deny || d.UserMessage != "no push" {
			t.Fatalf("%d: permission %q, message %q, said %q", n, d.Permission, d.UserMessage, said(d))
		}
		if got := read(); got != full {
			t.Fatalf("%d: the hook got %d bytes, not the %d sent", n, len(got), len(full))
		}

		// Common fields missing: they follow the host's bytes.
		bare := `{"tool_name":"Shell","tool_input":` + deepInput(n) + `}`
		d = run(t, e, event.PreToolUse, bare)
		got := read()
		if d.Permission != event.Deny || !strings.HasPrefix(got, bare[:len(bare)-1]+`,"conversation_id":""`) ||
			!strings.Contains(got, `"hook_event_name":"preToolUse"`) || !jsonscan.Valid([]byte(got)) {
			t.Fatalf("%d: permission %q; the hook got %.200q…", n, d.Permission, got)
		}

		// A field the engine replaces: the payload is encoded anew, the
		// deep input in it as sent.
		wrong := `{"hook_event_name":"stop","tool_name":"Shell","tool_input":` + deepInput(n) + `}`
		d = run(t, e, event.PreToolUse, wrong)
		got = read()
		if d.Permission != event.Deny || !strings.Contains(got, `"tool_input":`+deepInput(n)+`,`) ||
			!strings.Contains(got, `"hook_event_name":"preToolUse"`) || !jsonscan.Valid([]byte(got)) {
			t.Fatalf("%d: permission %q; the re-encoded payload lacks the input: %.200q…", n, d.Permission, got)
		}
	}
}

// TestDeepToolInputRunsClaudeHooks: the hooks of Claude Code settings
// get a deep tool input translated to Claude Code's shape, matched by
// Claude Code's tool name.
func TestDeepToolInputRunsClaudeHooks(t *testing.T) {
	const n = 100_000
	f := newFixture(t)
	seen := filepath.Join(f.dir, "seen.json")
	guard := f.script("guard.sh", `cat > `+seen+`; echo "no pushing" >&2; exit 2`)
	f.writeClaude(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "` + guard + `"}]}]}}`)
	d := run(t, f.engine(), event.PreToolUse, `{"conversation_id":"c1","tool_name":"Shell","tool_input":`+deepInput(n)+`}`)
	if d.Permission != event.Deny {
		t.Fatalf("permission %q, said %q", d.Permission, said(d))
	}
	got, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"hook_event_name":"PreToolUse"`, `"tool_name":"Bash"`, `"session_id":"c1"`, `"tool_input":` + deepInput(n)} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the Claude Code hook's payload lacks %.60s", want)
		}
	}
}
