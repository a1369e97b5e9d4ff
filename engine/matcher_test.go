package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
)

// Matchers are compiled on first use, but a bad one is still found when
// the configuration loads: it is a load problem, and a fail-closed hook
// with one still blocks its step (its stand-in fails), as it did when
// every matcher was compiled at load.
func TestBadMatcherIsALoadError(t *testing.T) {
	for _, failClosed := range []bool{true, false} {
		home := t.TempDir()
		if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
			t.Fatal(err)
		}
		fc := "false"
		if failClosed {
			fc = "true"
		}
		hooks := `{"version":1,"hooks":{"beforeShellExecution":[{"command":"echo '{\"permission\":\"allow\"}'","matcher":"git (push","failClosed":` + fc + `}]}}`
		if err := os.WriteFile(config.UserFile(home), []byte(hooks), 0o644); err != nil {
			t.Fatal(err)
		}
		e, err := Load(Options{Locations: config.Locations{Home: home, EnterpriseFile: filepath.Join(home, "none.json"), WorkspaceRoots: []string{home}}})
		if err != nil {
			t.Fatal(err)
		}
		ps := e.Problems()
		if len(ps) != 1 || ps[0].Severity != config.Error || !strings.Contains(ps[0].Message, "missing closing )") {
			t.Fatalf("failClosed %v: problems %v, want the bad matcher", failClosed, ps)
		}
		d, err := e.Run(context.Background(), event.BeforeShellExecution, &event.BeforeShellExecutionInput{Command: "git push"})
		if err != nil {
			t.Fatal(err)
		}
		if d.Blocked() != failClosed {
			t.Errorf("failClosed %v: blocked = %v (%+v)", failClosed, d.Blocked(), d.Hooks)
		}
	}
}
