//go:build unix

package proc

import (
	"os"
	"path/filepath"
	"testing"
)

// A program sh would not find is reported only when that is certain:
// expansions, builtins and assignments are left to the shell.
func TestMissingProgram(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "plain.sh"), []byte("#!/bin/sh\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "bin"), 0o755)
	os.WriteFile(filepath.Join(dir, "bin", "tool"), []byte("#!/bin/sh\n"), 0o755)
	env := []string{"PATH=" + filepath.Join(dir, "bin")}
	cases := map[string]string{ // command → the missing program, "" when fine or unknown
		"./run.sh":                  "",
		"./run.sh --flag && echo x": "",
		"./nope.sh":                 "./nope.sh",
		".cursor/hooks/nope.sh a":   ".cursor/hooks/nope.sh",
		"./plain.sh":                "./plain.sh", // not executable
		"./bin":                     "./bin",      // a folder
		"tool --x":                  "",
		"no-such-tool --x":          "no-such-tool",
		"exit 3":                    "",
		"echo '{}'":                 "",
		"FOO=1 no-such-tool":        "",
		"$HOME/x.sh":                "",
		"\"./nope.sh\"":             "",
		"":                          "",
		"./run.sh\n./nope.sh":       "",
	}
	for cmd, want := range cases {
		name, missing := MissingProgram(cmd, dir, env)
		if missing != (want != "") || name != want && missing {
			t.Errorf("%q: missing %v (%q), want %q", cmd, missing, name, want)
		}
	}
	if _, missing := MissingProgram("no-such-tool", dir, nil); missing {
		t.Error("without PATH (sh's own default applies) a name was reported missing")
	}
}
