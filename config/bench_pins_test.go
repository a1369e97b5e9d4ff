package config

import (
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/trust"
)

// BenchmarkLoadPinned loads a trusted workspace whose hooks run scripts
// that load others (a Node hook requiring two files, a Python hook with
// sibling modules, a shell script sourcing a library): every load reads
// and hashes what the hooks run, checked against the trust store. A
// resident host loads again only when a watched file's stat changes; a
// CLI host (`agenthooks run`) pays this once per step.
func BenchmarkLoadPinned(b *testing.B) {
	root := filepath.Join(b.TempDir(), "ws")
	files := map[string]string{
		".cursor/hooks.json": `{"version":1,"hooks":{"beforeShellExecution":[` +
			`{"command":"node .cursor/hooks/guard.js"},{"command":"python3 .cursor/py/guard.py"},{"command":"sh .cursor/hooks/check.sh"}]}}`,
		".cursor/hooks/guard.js":      "const {a} = require('./lib/a');\nimport('./lib/b.mjs');\nconst fs = require('fs');\nlet s = '';\nprocess.stdin.on('data', d => s += d).on('end', () => console.log(a(JSON.parse(s))));\n",
		".cursor/hooks/lib/a.js":      "exports.a = p => p.command.includes('curl') ? '{\"permission\":\"deny\"}' : '{}';\n",
		".cursor/hooks/lib/b.mjs":     "export default 1;\n",
		".cursor/hooks/check.sh":      "#!/bin/sh\n. .cursor/hooks/lib.sh\ncheck \"$(cat)\"\n",
		".cursor/hooks/lib.sh":        "check() { echo '{}'; }\n",
		".cursor/py/guard.py":         "import json, sys\nimport rules\nprint(rules.decide(json.load(sys.stdin)))\n",
		".cursor/py/rules.py":         "def decide(p):\n    return '{}'\n",
		".cursor/py/util/__init__.py": "",
	}
	for rel, content := range files {
		writeFile(b, filepath.Join(root, filepath.FromSlash(rel)), content)
	}
	s, err := trust.Open(filepath.Join(b.TempDir(), "config"))
	if err != nil {
		b.Fatal(err)
	}
	pins, err := testSources.ProjectPins(root)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.TrustSums(root, pins); err != nil {
		b.Fatal(err)
	}
	loc := Locations{EnterpriseFile: filepath.Join(root, "no-enterprise.json"), WorkspaceRoots: []string{root}}
	if set := Load(loc, s); len(set.Hooks) != 3 || len(set.Problems) != 0 {
		b.Fatalf("loaded %d hooks, problems %q", len(set.Hooks), problemStrings(set.Problems))
	}
	b.ReportAllocs()
	for b.Loop() {
		Load(loc, s)
	}
}
