package host_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
)

// TestFreshSeesFileAppearWherePinnedAbsent: a resident host watches the
// folder of a file pinned as absent (a candidate Node would try before
// the one it loads) rather than the path itself; a file appearing there
// still reloads the engine at the next step and stops the hook.
func TestFreshSeesFileAppearWherePinnedAbsent(t *testing.T) {
	h, root, write := trustedHost(t, map[string]string{
		".cursor/hooks.json":         `{"version":1,"hooks":{"beforeShellExecution":[{"command":"node .cursor/hooks/guard.js"}]}}`,
		".cursor/hooks/guard.js":     "require('./lib/rules')",
		".cursor/hooks/lib/rules.js": "",
	})
	roots := []string{root}
	eng, err := h.Engine(roots, config.Skip{})
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
	if e, _ := h.Engine(roots, config.Skip{}); e.Config() != set {
		t.Fatal("the engine reloaded with nothing changed")
	}
	write(".cursor/hooks/lib/rules.mjs", "evil")
	e, _ := h.Engine(roots, config.Skip{})
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
