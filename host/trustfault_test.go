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
)

// A trust store that cannot be read takes no project's fail-closed hook
// away: it blocks the steps it would have judged (a sandboxed command
// could otherwise chmod the store away). Once the store reads again, the
// next step runs the project's hooks as trusted, without a restart.
func TestUnreadableTrustStoreKeepsFailClosed(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(ws, ".cursor"), 0o755)
	hooks := `{"version":1,"hooks":{"beforeShellExecution":[
	  {"command":"echo '{\"permission\":\"deny\",\"user_message\":\"no curl\"}'","matcher":"curl","failClosed":true}]}}`
	if err := os.WriteFile(filepath.Join(ws, ".cursor", "hooks.json"), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(t.TempDir(), "trust")
	if err := os.WriteFile(store, []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := host.Open(context.Background(), host.Options{
		Memory: true, TrustDir: store,
		Environ: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home},
		Locations: func(roots []string) config.Locations {
			return config.Locations{Home: home, EnterpriseFile: filepath.Join(home, "none.json"), WorkspaceRoots: roots}
		},
	})
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	step := func(cmd string) *host.Reply {
		return h.Run(context.Background(), host.Request{Step: event.BeforeShellExecution,
			Payload: []byte(`{"command":"` + cmd + `","cwd":"` + ws + `"}`), Workspaces: []string{ws}})
	}
	if rep := step("curl x"); !rep.Decision.Blocked() || !strings.Contains(rep.Decision.UserMessage, "trust store cannot be read") {
		t.Fatalf("a fail-closed project hook under an unreadable store: %s", rep.Stdout)
	}
	if rep := step("ls"); rep.Decision.Blocked() {
		t.Errorf("a step the hook's matcher does not take was blocked: %s", rep.Stdout)
	}

	// The store reads again, and trusts the workspace.
	os.Remove(store)
	trustWorkspace(t, store, ws)
	rep := step("curl x")
	if !rep.Decision.Blocked() || !strings.Contains(rep.Decision.UserMessage, "no curl") {
		t.Errorf("after the store was fixed, the project hook itself should deny: %s", rep.Stdout)
	}
}
