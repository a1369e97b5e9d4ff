package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingScripts: an interpreter whose script is not there from where
// the hook runs is a disarming error, and the fix names the path that
// works when the script is beside the hooks file; what cannot be judged
// (module resolution, shell syntax, code given inline) is not reported.
func TestMissingScripts(t *testing.T) {
	root := t.TempDir()
	cursor := filepath.Join(root, ".cursor")
	if err := os.MkdirAll(filepath.Join(cursor, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"hooks/guard.mjs", "hooks/guard.py"} {
		if err := os.WriteFile(filepath.Join(cursor, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(cursor, "hooks.json")
	cases := []struct {
		command, fix string // fix "" : no problem
	}{
		{"node ./hooks/guard.mjs", "write .cursor/hooks/guard.mjs"},
		{"python3 -u hooks/guard.py", "write .cursor/hooks/guard.py"},
		{"bun run ./hooks/guard.mjs", "write .cursor/hooks/guard.mjs"},
		{"bash .cursor/hooks/nope.sh", "create the script, or correct its path"},
		{"node .cursor/hooks/guard.mjs", ""},
		{"python3 .cursor/hooks/guard.py --strict", ""},
		{"node .cursor/hooks/guard", ""},            // module resolution
		{"node $HOME/hooks/guard.mjs", ""},          // shell syntax
		{"python3 -c 'print(1)'", ""},               // inline code
		{"python3 -m hooks.guard", ""},              // a module
		{"bun test", ""},                            // not run: no script
		{"./hooks/guard.mjs", ""},                   // not an interpreter
		{"node --import tsx ./hooks/guard.mjs", ""}, // first argument is not a path
	}
	for _, c := range cases {
		h := &Hook{Type: TypeCommand, Command: c.command, Dir: root, File: file, Step: "beforeShellExecution"}
		got := MissingScripts([]*Hook{h})
		if c.fix == "" {
			if len(got) != 0 {
				t.Errorf("%q: %v, want no problem", c.command, got)
			}
			continue
		}
		if len(got) != 1 || got[0].Severity != Error || !got[0].Disarms || !strings.Contains(got[0].Fix, c.fix) {
			t.Errorf("%q: %v, want one disarming error whose fix says %q", c.command, got, c.fix)
		}
	}
}
