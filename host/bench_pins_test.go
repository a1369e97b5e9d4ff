package host_test

import (
	"testing"

	"github.com/agenthooks/agenthooks/config"
)

// BenchmarkFreshPinned is what a resident host pays per step to know that
// a trusted workspace's engine is current: a stat of every file it was
// loaded from, pins included (a Node hook requiring two files, a Python
// hook with sibling modules, a shell script sourcing a library). It
// reports how many paths that is.
func BenchmarkFreshPinned(b *testing.B) {
	h, root, _ := trustedHost(b, map[string]string{
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
	})
	roots := []string{root}
	eng, err := h.Engine(roots, config.Skip{})
	if err != nil {
		b.Fatal(err)
	}
	set := eng.Config()
	if n := len(set.Hooks); n != 3 {
		b.Fatalf("%d hooks run, want 3: %v", n, set.Problems)
	}
	b.ReportAllocs()
	for b.Loop() {
		if e, err := h.Engine(roots, config.Skip{}); err != nil || e.Config() != set {
			b.Fatalf("engine reloaded (%v)", err)
		}
	}
	b.ReportMetric(float64(len(set.Watched())), "watched")
}
