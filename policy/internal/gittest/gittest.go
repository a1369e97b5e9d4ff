// Package gittest gives the tests of the policy packages a git of their
// own: a configuration no file outside the test decides, and repositories
// set up by running the real git.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Hermetic gives git a configuration of the test's own: an empty home
// with a global file, no system file, no repository above the returned
// directory (which is not a repository). It skips the test when git is
// not installed.
func Hermetic(t *testing.T) (home, dir string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	home = filepath.Join(root, "home")
	dir = filepath.Join(root, "work")
	for _, d := range []string{home, dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	t.Setenv("GIT_CEILING_DIRECTORIES", root)
	for _, v := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CONFIG",
		"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_EXEC_PATH"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	return home, dir
}

// Git runs git in dir for a test's setup, failing the test when it fails.
func Git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// RepoWithAliases makes a repository at dir/repo with aliases in its
// configuration, and global aliases g and st2 in home.
func RepoWithAliases(t *testing.T, home, dir string) string {
	t.Helper()
	repo := filepath.Join(dir, "repo")
	if err := os.MkdirAll(filepath.Join(repo, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	Git(t, repo, "init", "-q")
	Git(t, repo, "config", "alias.p", "push")
	Git(t, repo, "config", "alias.st", "status")
	Git(t, repo, "config", "alias.pm", "push origin main")
	Git(t, repo, "config", "alias.sh", "!git push origin main")
	Git(t, repo, "config", "alias.shf", "!f() { git push \"$@\"; }; f")
	Git(t, repo, "config", "alias.chain", "pm")
	Git(t, repo, "config", "alias.loop1", "loop2")
	Git(t, repo, "config", "alias.loop2", "loop1")
	Git(t, repo, "config", "alias.Up", "push -u origin HEAD:main")
	Git(t, home, "config", "--global", "alias.g", "push")
	Git(t, home, "config", "--global", "alias.st2", "status")
	return repo
}
