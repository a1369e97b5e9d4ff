//go:build unix

package client_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// One engine serves clients whose git configurations differ (git's
// variables do not separate engines), and each client's policy decision
// follows the aliases of its own GIT_CONFIG_GLOBAL: the engine asks git
// with the request's environment, never with that of the client that
// started it.
func TestGitAliasesFollowEachClient(t *testing.T) {
	w := newWorld(t)
	dir := t.TempDir()
	policy := filepath.Join(dir, "push.yaml")
	write(t, policy, `version: 1
rules:
  - name: push
    steps: [beforeShellExecution]
    when: commands(command).exists(c, gitPush(c).push)
    decision: deny
    user_message: "a push"
`)
	pushes, looks := filepath.Join(dir, "pushes.gitconfig"), filepath.Join(dir, "looks.gitconfig")
	write(t, pushes, "[alias]\n\tsh = push\n")
	write(t, looks, "[alias]\n\tsh = status\n")
	w.userHooks(fmt.Sprintf(`{"version":1,"hooks":{"beforeShellExecution":[{"command":"agenthooks policy %s"}]}}`, policy))
	before := w.startEngine()

	payload := fmt.Sprintf(`{"command":"git sh origin main","cwd":%q}`, w.ws)
	for _, tc := range []struct {
		config string
		deny   bool
	}{{pushes, true}, {looks, false}, {pushes, true}} {
		r := w.run(payload, []string{"GIT_CONFIG_GLOBAL=" + tc.config, "GIT_CONFIG_NOSYSTEM=1"}, "run", "beforeShellExecution")
		if denied := strings.Contains(r.out, `"permission":"deny"`); denied != tc.deny || r.code != 0 {
			t.Errorf("run, GIT_CONFIG_GLOBAL=%s: denied %v, want %v: %+v", filepath.Base(tc.config), denied, tc.deny, r)
		}
		// The policy verb itself, as a hook that runs it as a process.
		r = w.run(strings.Replace(payload, "{", `{"hook_event_name":"beforeShellExecution",`, 1),
			[]string{"GIT_CONFIG_GLOBAL=" + tc.config, "GIT_CONFIG_NOSYSTEM=1"}, "policy", policy)
		if denied := strings.Contains(r.out, `"permission":"deny"`); denied != tc.deny || r.code != 0 {
			t.Errorf("policy, GIT_CONFIG_GLOBAL=%s: denied %v, want %v: %+v", filepath.Base(tc.config), denied, tc.deny, r)
		}
	}
	after := w.status().Engine
	if after == nil || after.PID != before.PID || after.Steps != before.Steps+6 {
		t.Fatalf("the six steps were not all served by the one engine: before %+v, after %+v", before, after)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
