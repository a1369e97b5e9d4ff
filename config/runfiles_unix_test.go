//go:build unix

package config

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// What a pull request can add to a pinned folder besides a file changes
// the pins too: a link to another folder (whose files are pinned through
// it), a named pipe.
func TestFolderPinsLinksAndPipes(t *testing.T) {
	root := t.TempDir()
	guard := filepath.Join(root, ".cursor", "guard")
	writeFile(t, filepath.Join(guard, "__main__.py"), "import helper")
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "__init__.py"), "allow")
	sums := func() map[string][32]byte {
		m := map[string][32]byte{}
		for _, rf := range (&Hook{Type: TypeCommand, Command: "python3 .cursor/guard", Dir: root, Root: root}).RunFiles() {
			if rf.Present {
				m[rf.Path] = rf.SHA256
			}
		}
		return m
	}
	before := sums()
	if err := os.Symlink(outside, filepath.Join(guard, "helper")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	after := sums()
	if _, ok := after[filepath.Join(guard, "helper")]; !ok {
		t.Errorf("the linked folder is not pinned: %v", after)
	}
	if _, ok := after[filepath.Join(guard, "helper", "__init__.py")]; !ok {
		t.Errorf("the linked folder's files are not pinned: %v", after)
	}
	if len(after) <= len(before) {
		t.Errorf("pins before %d, after the link %d", len(before), len(after))
	}
	if err := syscall.Mkfifo(filepath.Join(guard, "pipe"), 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	if _, ok := sums()[filepath.Join(guard, "pipe")]; !ok {
		t.Error("a named pipe in the folder is not pinned")
	}
}

// bash's brace alternatives name each file.
func TestRunFilePathsBraces(t *testing.T) {
	root := t.TempDir()
	got := RunFilePaths("sh .cursor/hooks/{a,b}.sh", root, root, testSources.ProjectDirVars())
	for _, want := range []string{"a.sh", "b.sh"} {
		found := false
		for _, p := range got {
			found = found || p == filepath.Join(root, ".cursor", "hooks", want)
		}
		if !found {
			t.Errorf("%s is not among %q", want, got)
		}
	}
	if got := braces("x{a,b{c,d}}y", 64); len(got) != 3 || got[0] != "xay" || got[2] != "xbdy" {
		t.Errorf("nested braces: %q", got)
	}
}
