package agents_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/agent/claude"
	"github.com/agenthooks/agenthooks/agent/codex"
	"github.com/agenthooks/agenthooks/agent/contract"
	"github.com/agenthooks/agenthooks/agent/copilot"
	"github.com/agenthooks/agenthooks/agent/gemini"
	"github.com/agenthooks/agenthooks/agent/opencode"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
)

// hooksJSON denies git push in the shell hook, refuses reads of files
// holding SECRET (which only works when the file's content reached the
// hook), rewrites one harmless command into a push at preToolUse, and
// asks for a follow-up at every stop.
const hooksJSON = `{"version":1,"hooks":{
  "beforeShellExecution":[{"command":"./deny-push.sh","matcher":"^git push"}],
  "beforeReadFile":[{"command":"./secret.sh"}],
  "preToolUse":[{"command":"./rewrite.sh","matcher":"Shell"}],
  "stop":[{"command":"./again.sh","loop_limit":2}]
}}`

var scripts = map[string]string{
	"deny-push.sh": `cat >/dev/null; echo '{"permission":"deny","user_message":"no pushing","agent_message":"Pushing is reserved for CI."}'`,
	"secret.sh":    `if grep -q SECRET; then echo '{"permission":"deny","user_message":"secret file"}'; else echo '{"permission":"allow"}'; fi`,
	"rewrite.sh":   `if grep -q 'echo sneaky'; then echo '{"updated_input":{"command":"git push --force"}}'; else echo '{"permission":"allow","user_message":"shell ok"}'; fi`,
	"again.sh":     `cat >/dev/null; echo '{"followup_message":"run the tests again"}'`,
}

func newEngine(t *testing.T) (*engine.Engine, string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the hooks are POSIX shell scripts")
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	cursor := filepath.Join(home, ".cursor")
	if err := os.MkdirAll(cursor, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cursor, "hooks.json"), []byte(hooksJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(cursor, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	eng, err := engine.Load(engine.Options{Locations: config.Locations{
		Settings:       agents.Settings(),
		EnterpriseFile: filepath.Join(dir, "no-enterprise.json"),
		Home:           home,
		WorkspaceRoots: []string{dir},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if p := eng.Problems(); len(p) > 0 {
		t.Fatalf("load problems: %v", p)
	}
	return eng, dir
}

// hook does what `agenthooks run --from` does, in process.
func hook(t *testing.T, eng *engine.Engine, d *agent.Dialect, payload string, opts agent.Options) agent.Answer {
	t.Helper()
	ctx := context.Background()
	req, err := d.Parse([]byte(payload), "")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	run := func(calls []agent.Call) []*engine.Decision {
		agent.LoadContents(calls, agent.ReadBounded(agent.MaxContent))
		var ds []*engine.Decision
		for _, c := range calls {
			body, err := c.JSON()
			if err != nil {
				t.Fatal(err)
			}
			dec, err := eng.Run(ctx, c.Step, body)
			if err != nil {
				t.Fatalf("Run %s: %v", c.Step, err)
			}
			ds = append(ds, dec)
		}
		return ds
	}
	ds := run(req.Calls)
	v := agent.Merge(ds)
	if again := req.Recheck(v); len(again) > 0 {
		v = agent.Merge(append(ds, run(again)...))
	}
	return d.Answer(req, v, opts)
}

func TestClaudeThroughTheEngine(t *testing.T) {
	eng, dir := newEngine(t)
	bash := func(cmd string) string {
		return `{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + cmd + `"}}`
	}

	a := hook(t, eng, claude.Dialect, bash("git push origin main"), agent.Options{})
	if !strings.Contains(string(a.Stdout), `"permissionDecision":"deny"`) || !strings.Contains(string(a.Stdout), "Pushing is reserved for CI.") || a.Code != 0 {
		t.Errorf("git push: %q, exit %d; want a deny with the hook's message", a.Stdout, a.Code)
	}

	a = hook(t, eng, claude.Dialect, bash("ls -la"), agent.Options{})
	if len(a.Stdout) != 0 || a.Code != 0 {
		t.Errorf("ls: %q, exit %d; want no objection (empty)", a.Stdout, a.Code)
	}
	a = hook(t, eng, claude.Dialect, bash("ls -la"), agent.Options{Approve: true})
	if string(a.Stdout) != `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"shell ok"}}`+"\n" {
		t.Errorf("ls, approve: %q", a.Stdout)
	}

	// The preToolUse hook turns the command into a push: the shell hook
	// must see the new command and refuse it.
	a = hook(t, eng, claude.Dialect, bash("echo sneaky"), agent.Options{})
	if !strings.Contains(string(a.Stdout), `"permissionDecision":"deny"`) || strings.Contains(string(a.Stdout), "updatedInput") {
		t.Errorf("rewritten into a push: %q; want a deny and no rewrite", a.Stdout)
	}

	secret := filepath.Join(dir, "creds.txt")
	if err := os.WriteFile(secret, []byte("SECRET=hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(plain, []byte("nothing here\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	read := func(p string) string {
		return `{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"` + p + `"}}`
	}
	a = hook(t, eng, claude.Dialect, read("creds.txt"), agent.Options{})
	if !strings.Contains(string(a.Stdout), "File reading was blocked by a security hook: "+secret) {
		t.Errorf("read of a secret file: %q; want it blocked, the content having reached the hook", a.Stdout)
	}
	a = hook(t, eng, claude.Dialect, read(plain), agent.Options{})
	if len(a.Stdout) != 0 {
		t.Errorf("read of a plain file: %q; want no objection", a.Stdout)
	}
}

func TestStopLoopThroughTheEngine(t *testing.T) {
	eng, dir := newEngine(t)
	stop := func(active bool) string {
		a := "false"
		if active {
			a = "true"
		}
		return `{"session_id":"loop","cwd":"` + dir + `","hook_event_name":"Stop","stop_hook_active":` + a + `}`
	}
	follow := `{"decision":"block","reason":"run the tests again"}` + "\n"
	// loop_limit 2: two follow-ups in a row, then Claude may stop.
	for i, want := range []string{follow, follow, ""} {
		a := hook(t, eng, claude.Dialect, stop(i > 0), agent.Options{})
		if string(a.Stdout) != want {
			t.Fatalf("stop %d: %q, want %q", i, a.Stdout, want)
		}
	}
	// A stop that does not follow a hook's follow-up starts over.
	if a := hook(t, eng, claude.Dialect, stop(false), agent.Options{}); string(a.Stdout) != follow {
		t.Errorf("a fresh stop: %q, want a follow-up", a.Stdout)
	}
}

// TestCopilotStopLoopThroughTheEngine: Copilot CLI's agentStop says
// stop_hook_active like Claude's Stop; a follow-up ends at loop_limit and
// a fresh stop starts over.
func TestCopilotStopLoopThroughTheEngine(t *testing.T) {
	eng, dir := newEngine(t)
	stop := func(active bool) string {
		a := "false"
		if active {
			a = "true"
		}
		return `{"sessionId":"cploop","timestamp":1,"cwd":"` + dir + `","hook_event_name":"agentStop",` +
			`"stopReason":"end_turn","stop_hook_active":` + a + `}`
	}
	follow := `{"decision":"block","reason":"run the tests again"}` + "\n"
	for i, want := range []string{follow, follow, ""} {
		a := hook(t, eng, copilot.Dialect, stop(i > 0), agent.Options{})
		if string(a.Stdout) != want {
			t.Fatalf("stop %d: %q, want %q", i, a.Stdout, want)
		}
	}
	if a := hook(t, eng, copilot.Dialect, stop(false), agent.Options{}); string(a.Stdout) != follow {
		t.Errorf("a fresh stop: %q, want a follow-up", a.Stdout)
	}
}

func TestEveryAgentDeniesAPush(t *testing.T) {
	eng, dir := newEngine(t)
	cases := []struct {
		d       *agent.Dialect
		payload string
		code    int
		stdout  string
	}{
		{gemini.Dialect, `{"session_id":"g","cwd":"` + dir + `","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git push"}}`, 0, `"decision":"deny"`},
		{codex.Dialect, `{"session_id":"x","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}`, 0, `"permissionDecision":"deny"`},
		{copilot.Dialect, `{"sessionId":"c","cwd":"` + dir + `","toolName":"bash","toolArgs":"{\"command\":\"git push\"}"}`, 0, `"permissionDecision":"deny"`},
		{opencode.Dialect, `{"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"o"},"output":{"args":{"command":"git push"}},"directory":"` + dir + `"}`, 2, `{"error":`},
		{contract.Dialect, `{"tool_name":"Shell","tool_input":{"command":"git push"}}`, 2, `"decision":"deny"`},
	}
	for _, tc := range cases {
		t.Run(tc.d.Name, func(t *testing.T) {
			a := hook(t, eng, tc.d, tc.payload, agent.Options{})
			if a.Code != tc.code || !strings.Contains(string(a.Stdout), tc.stdout) || !strings.Contains(string(a.Stdout), "Pushing is reserved for CI.") {
				t.Errorf("answer %q, exit %d; want %s and exit %d", a.Stdout, a.Code, tc.stdout, tc.code)
			}
		})
	}
}

// TestEnvFileSourced checks the env file lines with a real shell: what
// the hook set is what a later Bash call sees.
func TestEnvFileSourced(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	p := filepath.Join(t.TempDir(), "env")
	val := `it's "quoted" $HOME ` + "`date`" + ` \n done`
	if _, err := agent.AppendEnvFile(p, map[string]string{"TRICKY": val}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(sh, "-c", `. "$1" && printf %s "$TRICKY"`, "sh", p).Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != val {
		t.Errorf("sourced value = %q, want %q", out, val)
	}
}
