package host_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/trust"
)

// TestFreshSeesFileAppearWherePinnedAbsent: a resident host watches the
// folder of a file pinned as absent (a candidate Node would try before
// the one it loads) rather than the path itself; a file appearing there
// still reloads the engine at the next step and stops the hook.
func TestFreshSeesFileAppearWherePinnedAbsent(t *testing.T) {
	dir := t.TempDir()
	home, root := filepath.Join(dir, "home"), filepath.Join(dir, "ws")
	write := func(rel, content string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".cursor/hooks.json", `{"version":1,"hooks":{"beforeShellExecution":[{"command":"node .cursor/hooks/guard.js"}]}}`)
	write(".cursor/hooks/guard.js", "require('./lib/rules')")
	write(".cursor/hooks/lib/rules.js", "")
	cfg := filepath.Join(dir, "config")
	for _, d := range []string{filepath.Join(home, ".cursor"), filepath.Join(dir, "state")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	store, err := trust.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	pins, err := config.ProjectPins(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.TrustSums(root, pins); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2100 * time.Millisecond) // past the racy window: no reload unless a stat changes
	h := host.Open(context.Background(), host.Options{
		Environ:  []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "AGENTHOOKS_CONFIG_DIR=" + cfg, "AGENTHOOKS_STATE_DIR=" + filepath.Join(dir, "state")},
		TrustDir: cfg,
		Locations: func(roots []string) config.Locations {
			return config.Locations{Home: home, EnterpriseFile: filepath.Join(dir, "none.json"), WorkspaceRoots: roots}
		},
	})
	defer h.Close(context.Background())
	roots := []string{root}
	eng, err := h.Engine(roots, nil)
	if err != nil {
		t.Fatal(err)
	}
	set := eng.Config()
	if len(set.Hooks) != 1 {
		t.Fatalf("%d hooks run, want 1: %v", len(set.Hooks), set.Problems)
	}
	candidate := filepath.Join(root, ".cursor", "hooks", "lib", "rules.mjs")
	for _, p := range set.Watched() {
		if p == candidate {
			t.Errorf("%s, absent, is watched itself", p)
		}
	}
	if e, _ := h.Engine(roots, nil); e.Config() != set {
		t.Fatal("the engine reloaded with nothing changed")
	}
	write(".cursor/hooks/lib/rules.mjs", "evil")
	e, _ := h.Engine(roots, nil)
	if e.Config() == set {
		t.Fatal("a file appearing where Node looks did not reload the engine")
	}
	if n := len(e.Config().Hooks); n != 0 {
		t.Errorf("%d hooks run after %s appeared, want 0", n, candidate)
	}
	found := false
	for _, p := range e.Config().Problems {
		found = found || strings.Contains(p.Error(), candidate+" was added since workspace")
	}
	if !found {
		t.Errorf("no problem names %s: %v", candidate, e.Config().Problems)
	}
}
