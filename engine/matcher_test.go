package engine

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
)

// loadMatcherHook loads one user beforeShellExecution hook that allows,
// with matcher, fail-closed or not.
func loadMatcherHook(t *testing.T, matcher string, failClosed bool) *Engine {
	t.Helper()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	hooks := `{"version":1,"hooks":{"beforeShellExecution":[{"command":"echo '{\"permission\":\"allow\"}'","matcher":` +
		strconv.Quote(matcher) + `,"failClosed":` + strconv.FormatBool(failClosed) + `}]}}`
	if err := os.WriteFile(config.UserFile(home), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := Load(Options{Locations: config.Locations{Home: home, EnterpriseFile: filepath.Join(home, "none.json"), WorkspaceRoots: []string{home}}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Matchers are compiled on first use, but a bad one is still found when
// the configuration loads: it is a load problem, and a fail-closed hook
// with one still blocks its step (its stand-in fails), as it did when
// every matcher was compiled at load.
func TestBadMatcherIsALoadError(t *testing.T) {
	for _, failClosed := range []bool{true, false} {
		e := loadMatcherHook(t, "git (push", failClosed)
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
