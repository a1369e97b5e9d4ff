package host_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/trust"
)

// BenchmarkFreshPinned is what a resident host pays per step to know that
// a trusted workspace's engine is current: a stat of every file it was
// loaded from, pins included (a Node hook requiring two files, a Python
// hook with sibling modules, a shell script sourcing a library). It
// reports how many paths that is.
func BenchmarkFreshPinned(b *testing.B) {
	dir := b.TempDir()
	home, root := filepath.Join(dir, "home"), filepath.Join(dir, "ws")
	files := map[string]string{
		".cursor/hooks.json": `{"version":1,"hooks":{"beforeShellExecution":[` +
			`{"command":"node .cursor/hooks/guard.js"},{"command":"python3 .cursor/py/guard.py"},{"command":"sh .cursor/hooks/check.sh"}]}}`,
		".cursor/hooks/guard.js":      "const {a} = require('./lib/a');\nimport('./lib/b.mjs');\nconsole.log(a());\n",
		".cursor/hooks/lib/a.js":      "exports.a = () => '{}';\n",
		".cursor/hooks/lib/b.mjs":     "export default 1;\n",
		".cursor/hooks/check.sh":      "#!/bin/sh\n. .cursor/hooks/lib.sh\ncheck\n",
		".cursor/hooks/lib.sh":        "check() { echo '{}'; }\n",
		".cursor/py/guard.py":         "import json, sys\nimport rules\n",
		".cursor/py/rules.py":         "def decide(p):\n    return '{}'\n",
		".cursor/py/util/__init__.py": "",
	}
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, "config")
	store, err := trust.Open(cfg)
	if err != nil {
		b.Fatal(err)
	}
	pins, err := config.ProjectPins(root)
	if err != nil {
		b.Fatal(err)
	}
	if err := store.TrustSums(root, pins); err != nil {
		b.Fatal(err)
	}
	for _, d := range []string{filepath.Join(home, ".cursor"), filepath.Join(dir, "state")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	// Files changed in the last two seconds make every step reload
	// (racyWindow): let them age.
	time.Sleep(2100 * time.Millisecond)
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
		b.Fatal(err)
	}
	if n := len(eng.Config().Hooks); n != 3 {
		b.Fatalf("%d hooks run, want 3: %v", n, eng.Config().Problems)
	}
	set := eng.Config()
	if e, _ := h.Engine(roots, nil); e.Config() != set {
		for _, p := range set.Watched() {
			fi, err := os.Stat(p)
			if err == nil {
				b.Logf("%s %v %v", p, fi.ModTime(), time.Since(fi.ModTime()))
			}
		}
		b.Fatal("reloaded on the first step")
	}
	b.ReportAllocs()
	for b.Loop() {
		if e, err := h.Engine(roots, nil); err != nil || e != eng {
			b.Fatalf("engine reloaded (%v)", err)
		}
	}
	b.ReportMetric(float64(len(eng.Config().Watched())), "watched")
}
