//go:build unix

package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzNeedsShell checks every command NeedsShell lets through against the
// real /bin/sh: sh must split it into exactly our words (no expansion,
// globbing, quoting or operator changed anything), and must not take its
// first word for a keyword, builtin, alias or function.
func FuzzNeedsShell(f *testing.F) {
	for _, seed := range []string{
		"ls -la", "./x.sh a", "python3 hook.py --k=v", "echo hi", "FOO=1 cmd", "a*b", "~/x",
		"x # y", "%1", "a,b c+d e@f g:h", "true", "cd /", "a\tb", "[ x ]", "a$b",
	} {
		f.Add(seed)
	}
	// A few files, so that a glob let through would expand and show.
	dir := f.TempDir()
	for _, name := range []string{"a", "ab", "b1", "x.sh"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, command string) {
		if NeedsShell(command) {
			return
		}
		words := splitWords(command)
		if len(words) == 0 {
			t.Fatalf("NeedsShell(%q) = false for a command with no words", command)
		}
		script := "for w in " + command + "; do printf '%s\\n' \"$w\"; done; command -V -- " + words[0] + " 2>&1 || true"
		cmd := exec.Command("/bin/sh", "-c", script)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("sh -c %q: %v", script, err)
		}
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(lines) != len(words)+1 || strings.Join(lines[:len(words)], "\x00") != strings.Join(words, "\x00") {
			t.Fatalf("sh splits %q into %q, we into %q", command, lines[:len(lines)-1], words)
		}
		kind := lines[len(lines)-1]
		for _, special := range []string{"builtin", "keyword", "reserved", "alias", "function"} {
			if strings.Contains(kind, special) {
				t.Fatalf("first word of %q is special to sh: %s", command, kind)
			}
		}
	})
}
