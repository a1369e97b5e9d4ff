package host_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/internal/faultinject"
)

// testHost is a host over a home of its own whose user hooks.json is
// hooks, in memory, with environ as its environment.
func testHost(t *testing.T, hooks string, environ ...string) (*host.Host, string) {
	t.Helper()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config.UserFile(home), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AGENTHOOKS_CONFIG_DIR", filepath.Join(home, "config"))
	h := host.Open(context.Background(), host.Options{
		Memory:  true,
		Environ: append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}, environ...),
		Locations: func(roots []string) config.Locations {
			return config.Locations{Home: home, EnterpriseFile: filepath.Join(home, "none.json"), WorkspaceRoots: roots}
		},
	})
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	return h, home
}

func run(h *host.Host, home, payload string) *host.Reply {
	return h.Run(context.Background(), host.Request{Step: event.BeforeShellExecution, Payload: []byte(payload), Workspaces: []string{home}})
}

func TestBadModelSettingFailsPromptHooksClosed(t *testing.T) {
	hooks := `{"version":1,"hooks":{"beforeShellExecution":[{"type":"prompt","prompt":"is $ARGUMENTS safe?","failClosed":true}]}}`
	h, home := testHost(t, hooks, "AGENTHOOKS_LLM_PROVIDER=bogus")
	rep := run(h, home, `{"command":"git push"}`)
	if !rep.Decision.Blocked() {
		t.Fatalf("a fail-closed prompt hook with no usable model did not block: %s", rep.Stdout)
	}
	if !strings.Contains(rep.Decision.UserMessage, "AGENTHOOKS_LLM_PROVIDER") {
		t.Errorf("the block does not name the bad setting: %q", rep.Decision.UserMessage)
	}
	rep = run(h, home, `{"command":"ls"}`)
	if w := h.Warnings(); len(w) != 1 || !strings.Contains(w[0], "AGENTHOOKS_LLM_PROVIDER") {
		t.Errorf("warnings = %q, want the bad setting once", w)
	}
	if len(rep.Warnings) != 0 {
		t.Errorf("a second run repeated the warning: %q", rep.Warnings)
	}
}

func TestSecretsAreWithheldFromHooks(t *testing.T) {
	out := filepath.Join(t.TempDir(), "env.txt")
	hooks := `{"version":1,"hooks":{"beforeShellExecution":[{"command":"env > ` + out + `"}]}}`
	h, home := testHost(t, hooks,
		"AGENTHOOKS_TEAM_TOKEN=team-secret", "AGENTHOOKS_LLM_API_KEY_ENV=JUDGE_KEY", "JUDGE_KEY=judge-secret",
		"OPENAI_API_KEY=users-own", "SOMETHING_ELSE=kept")
	run(h, home, `{"command":"ls"}`)
	env, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"team-secret", "judge-secret"} {
		if strings.Contains(string(env), secret) {
			t.Errorf("a hook saw %s:\n%s", secret, env)
		}
	}
	for _, kept := range []string{"SOMETHING_ELSE=kept", "OPENAI_API_KEY=users-own", "AGENTHOOKS_LLM_API_KEY_ENV=JUDGE_KEY"} {
		if !strings.Contains(string(env), kept) {
			t.Errorf("a hook lost %s", kept)
		}
	}
}

func TestPanicIsAFault(t *testing.T) {
	faultinject.Hook = func(stage string) { panic("boom at " + stage) }
	t.Cleanup(func() { faultinject.Hook = nil })

	closed := `{"version":1,"hooks":{"beforeShellExecution":[{"command":"true","failClosed":true}]}}`
	h, home := testHost(t, closed)
	rep := run(h, home, `{"command":"git push"}`)
	if rep.Fault == nil || !rep.Decision.Blocked() || rep.Code != 0 {
		t.Fatalf("panic with a fail-closed hook: fault %v, blocked %v, exit %d", rep.Fault, rep.Decision.Blocked(), rep.Code)
	}
	if !strings.Contains(string(rep.Stdout), `"permission":"deny"`) {
		t.Errorf("stdout = %s, want Cursor's deny", rep.Stdout)
	}

	open := `{"version":1,"hooks":{"beforeShellExecution":[{"command":"true"}]}}`
	h, home = testHost(t, open)
	rep = run(h, home, `{"command":"git push"}`)
	if rep.Fault == nil || rep.Decision.Blocked() || strings.TrimSpace(string(rep.Stdout)) != "{}" {
		t.Fatalf("panic with no fail-closed hook: fault %v, stdout %s; want no opinion", rep.Fault, rep.Stdout)
	}
	if len(rep.Warnings) == 0 || !strings.Contains(rep.Warnings[0], "panic: boom at run") {
		t.Errorf("warnings = %q, want the panic", rep.Warnings)
	}

	// An agent's payload: Claude Code reads the deny from the usual JSON.
	h, home = testHost(t, closed)
	rep = h.Run(context.Background(), host.Request{Agent: "claude", Workspaces: []string{home},
		Payload: []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}`)})
	if !strings.Contains(string(rep.Stdout), `"permissionDecision":"deny"`) {
		t.Errorf("claude: exit %d, stdout %s; want a deny", rep.Code, rep.Stdout)
	}
}
