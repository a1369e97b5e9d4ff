package gitpush

import (
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/policy/internal/gittest"
)

// TestForeignRepository: a git command sent to a bare repository (a
// remote on a local path), to a git directory named outright, or to a
// place that cannot be told, is a dynamic push unless it only reads; one
// sent to a work tree is what it is. The configuration commands and -c
// options that make git run a command later are dynamic pushes too.
func TestForeignRepository(t *testing.T) {
	_, dir := gittest.Hermetic(t)
	gittest.Git(t, dir, "init", "-q")
	gittest.Git(t, filepath.Dir(dir), "init", "-q", "--bare", "origin.git")
	cases := []struct{ line, want string }{
		{"git -C ../origin.git fetch ../work main:main", "?"},
		{"git --git-dir=../origin.git update-ref refs/heads/main HEAD", "?"},
		{"git --git-dir ../origin.git branch -D release/1", "?"},
		{"GIT_DIR=../origin.git git branch -f main x", "?"},
		{"env GIT_DIR=../origin.git git tag -f v1", "?"},
		{"cd ../origin.git && git fetch ../work main:main", "?"},
		{"cd ../origin.git/refs && git update-ref refs/heads/main HEAD", "?"},
		{"export GIT_DIR=../origin.git; git fetch ../work main:main", "?"},
		{"cd \"$x\" && git commit -m m", "?"},
		{"git -C ../origin.git log -1", "-"},
		{"git --git-dir=../origin.git for-each-ref", "-"},
		{"cd ../origin.git && git status", "-"},
		{"git -C . commit -m m", "-"},
		{"git --git-dir=.git commit -m m", "-"},
		{"git -C ../origin.git push ../work main:feature/x", "push feature/x"},
		// Configuration that makes git run a command later.
		{"git config core.hooksPath ../h", "?"},
		{"git config --global core.pager 'git push origin main'", "?"},
		{"git config pager.log 'sh -c x'", "?"},
		{"git config include.path ~/x.cfg", "?"},
		{"git -c include.path=~/x.cfg push origin feature/x", "?"},
		{"git -c includeIf.gitdir:/.path=~/x.cfg status", "?"},
		{"git config core.pager cat", "-"},
		{"git config core.editor 'code --wait'", "-"},
		{"git config user.name bob", "-"},
	}
	for _, c := range cases {
		if got := describePush(pushOf(t, dir, c.line)); got != c.want {
			t.Errorf("%s\n got %q, want %q", c.line, got, c.want)
		}
	}
	// A git command an unknown program may run is judged for what it
	// plainly shows: a push is one, anything else an argument.
	for line, want := range map[string]string{
		"faketime @0 git push origin main": "push main",
		"apt-get install -y git curl":      "-",
		"npm exec -- git $(echo push)":     "?",
	} {
		if got := describePush(pushOf(t, dir, line)); got != want {
			t.Errorf("%s\n got %q, want %q", line, got, want)
		}
	}
}
