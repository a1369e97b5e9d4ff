//go:build unix

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/internal/needs"
)

// TestSetupAndTrustAskOnTerminal: on a terminal, setup asks once before it
// changes anything, then offers the workspace's trust after showing its
// hooks; trust asks too. y does it, anything else leaves all as it was.
func TestSetupAndTrustAskOnTerminal(t *testing.T) {
	needs.Short(t, "the command line's tests that build the agenthooks binary (signals, terminals, version stamps)")
	dir := t.TempDir()
	bin := filepath.Join(dir, "agenthooks")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/agenthooks-engine").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	fake := filepath.Join(dir, "agents")
	if err := os.MkdirAll(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fake, "claude"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, keys string
		yes        bool
	}{
		{"yes", "y\r", true},
		{"no", "n\r", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, ws := t.TempDir(), t.TempDir()
			hooks := `{"version":1,"hooks":{"beforeShellExecution":[{"matcher":"rm -rf","command":"echo '{\"permission\":\"deny\"}'"}]}}`
			if err := os.MkdirAll(filepath.Join(ws, ".cursor"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(ws, ".cursor", "hooks.json"), []byte(hooks), 0o644); err != nil {
				t.Fatal(err)
			}
			env := append(os.Environ(), "HOME="+home, "PATH="+fake+":/usr/bin:/bin",
				"AGENTHOOKS_CONFIG_DIR="+filepath.Join(home, "config"), "AGENTHOOKS_STATE_DIR="+filepath.Join(home, "state"),
				"AGENTHOOKS_ENGINE=off")
			cmd := exec.Command(bin, "setup", "--workspace", ws, "--binary", bin)
			cmd.Env = env
			s := startOnPTY(t, cmd)
			s.waitFor("Make these changes? [y/N] ")
			if !strings.Contains(s.text(), "Claude Code (claude), found at "+fake) {
				t.Fatalf("no plan:\n%s", s.text())
			}
			s.typeIn(tc.keys)
			if tc.yes {
				s.waitFor("let these hooks run? [y/N] ")
				if !strings.Contains(s.text(), "beforeShellExecution  rm -rf") {
					t.Fatalf("the hooks were not shown before the question:\n%s", s.text())
				}
				s.typeIn("y\r")
			}
			code := s.finish(cmd)
			settings, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
			wired := strings.Contains(string(settings), "run --from claude")
			if wired != tc.yes {
				t.Fatalf("wired %v, want %v (exit %d):\n%s", wired, tc.yes, code, s.text())
			}
			if tc.yes && (code != 0 || !strings.Contains(s.text(), "trusted: "+ws)) {
				t.Fatalf("exit %d, want the workspace trusted and doctor green:\n%s", code, s.text())
			}
			if !tc.yes && (code != 1 || !strings.Contains(s.text(), "nothing changed")) {
				t.Fatalf("exit %d, want 1 and nothing changed:\n%s", code, s.text())
			}

			// trust asks as well; a no trusts nothing.
			if !tc.yes {
				cmd := exec.Command(bin, "trust", ws)
				cmd.Env = env
				s := startOnPTY(t, cmd)
				s.waitFor("pinned to these files? [y/N] ")
				s.typeIn("n\r")
				if code := s.finish(cmd); code != 0 || !strings.Contains(s.text(), "not trusted: "+ws) {
					t.Fatalf("trust, answered no: exit %d:\n%s", code, s.text())
				}
			}
		})
	}
}
