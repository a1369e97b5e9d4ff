//go:build unix

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/needs"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamsync/faketeam"
)

// TestSyncAsksOnTerminal: on a terminal the first sync shows the notice
// and asks; v shows the scripts, y installs, anything else does not.
func TestSyncAsksOnTerminal(t *testing.T) {
	needs.Short(t, "the command line's tests that build the agenthooks binary (signals, terminals, version stamps)")
	bin := filepath.Join(t.TempDir(), "agenthooks")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/agenthooks-engine").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	srv := faketeam.New(t, 3, "Platform", "tok")
	srv.SetHooks(faketeam.Hook(1, "beforeShellExecution", "guard.sh", "#!/bin/sh\necho reviewed-script\n"))
	for _, tc := range []struct {
		name, keys string
		installed  bool
	}{
		{"yes", "y\r", true},
		{"view then yes", "v\r", true},
		{"no", "n\r", false},
		{"end of input", "\x04", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			cmd := exec.Command(bin, "sync", "--home", home)
			cmd.Env = append(os.Environ(), teamsync.TokenEnv+"=tok", teamsync.ServerEnv+"="+srv.URL)
			s := startOnPTY(t, cmd)
			s.waitFor("Install these hooks? [y/N, v to view the scripts] ")
			if !strings.Contains(s.text(), "This team uses admin-enabled hooks") || !strings.Contains(s.text(), "guard.sh") {
				t.Fatalf("no notice:\n%s", s.text())
			}
			s.typeIn(tc.keys)
			if tc.keys == "v\r" {
				s.waitFor("reviewed-script")
				s.typeIn("y\r")
			}
			code := s.finish(cmd)
			_, err := os.Stat(filepath.Join(config.TeamHooksDir(home, "3"), "guard.sh"))
			if installed := err == nil; installed != tc.installed || (code == 0) != tc.installed {
				t.Fatalf("exit %d, installed %v; screen:\n%s", code, installed, s.text())
			}
			if !tc.installed && !strings.Contains(s.text(), "re-run with --accept") {
				t.Fatalf("no advice:\n%s", s.text())
			}
		})
	}
}
