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

// TestInstallAsksOnTerminal: on a terminal, install without --trust asks
// before recording Codex's trust; y records it, anything else prints the
// settings instead.
func TestInstallAsksOnTerminal(t *testing.T) {
	needs.Short(t, "the command line's tests that build the agenthooks binary (signals, terminals, version stamps)")
	bin := filepath.Join(t.TempDir(), "agenthooks")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/agenthooks-engine").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		name, keys string
		trusted    bool
	}{
		{"yes", "y\r", true},
		{"no", "n\r", false},
		{"end of input", "\x04", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, ws := t.TempDir(), t.TempDir()
			cmd := exec.Command(bin, "install", "--agent", "codex", "--scope", "project", "--workspace", ws, "--binary", bin)
			cmd.Env = append(os.Environ(), "HOME="+home, "CODEX_HOME="+filepath.Join(home, ".codex"))
			s := startOnPTY(t, cmd)
			s.waitFor("? [y/N] ")
			if !strings.Contains(s.text(), "Codex skips these hooks until:") || !strings.Contains(s.text(), "Codex trusts the project "+ws) {
				t.Fatalf("no question:\n%s", s.text())
			}
			s.typeIn(tc.keys)
			if code := s.finish(cmd); code != 0 {
				t.Fatalf("exit %d:\n%s", code, s.text())
			}
			cfg, _ := os.ReadFile(filepath.Join(home, ".codex", "config.toml"))
			if trusted := strings.Contains(string(cfg), `trust_level = "trusted"`); trusted != tc.trusted {
				t.Fatalf("trusted %v, want %v; config.toml:\n%s\nscreen:\n%s", trusted, tc.trusted, cfg, s.text())
			}
			if !tc.trusted && !strings.Contains(s.text(), "--trust") {
				t.Fatalf("no advice:\n%s", s.text())
			}
		})
	}
}
