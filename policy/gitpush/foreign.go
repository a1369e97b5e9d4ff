package gitpush

import (
	"os"
	"path/filepath"
)

// A git command told to work in another repository than the one its line
// works in can update that repository's refs with any subcommand: when
// the other repository is a remote on a local path (a bare repository
// beside the work, as a shared folder or a test's origin is), `git -C
// ../origin.git fetch ../work main:main`, `git --git-dir=../origin.git
// update-ref refs/heads/main …` or `GIT_DIR=… git branch -f main` move
// its branches as a push would. Such a command is a dynamic push unless
// its subcommand only reads (readOnlyGit): when it is sent to a bare
// repository, to a git directory given by name (--git-dir, GIT_DIR,
// --bare), or to a directory the analysis cannot tell (`cd "$x"`).

// readOnlyGit are subcommands that update no ref of the repository they
// run in (clone makes another).
var readOnlyGit = setOf("status", "log", "show", "diff", "diff-tree", "diff-index", "diff-files",
	"rev-parse", "rev-list", "cat-file", "ls-files", "ls-tree", "for-each-ref", "show-ref",
	"describe", "blame", "annotate", "grep", "shortlog", "ls-remote", "name-rev", "merge-base",
	"count-objects", "fsck", "fsck-objects", "verify-commit", "verify-tag", "verify-pack", "help",
	"version", "var", "check-ref-format", "check-ignore", "check-attr", "check-mailmap",
	"show-branch", "cherry", "whatchanged", "archive", "format-patch", "get-tar-commit-id",
	"column", "stripspace", "clone", "range-diff")

// foreignRepo reports whether a git command redirected to inv (by -C,
// cd, --git-dir, GIT_DIR or --bare) may work in a repository other than
// an ordinary work tree's: a bare repository, a git directory named
// outright that is not a work tree's .git, or a place not known.
func foreignRepo(inv gitInv) bool {
	if inv.gitDirUnknown {
		return true
	}
	if inv.gitDir != "" {
		return filepath.Base(inv.gitDir) != ".git"
	}
	if inv.dir == "" {
		return true
	}
	// Git's discovery: each directory up from dir is a work tree (it
	// holds .git) or a bare repository (it is a git directory itself).
	for d := inv.dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return false
		}
		if bareRepo(d) {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// bareRepo reports a directory that git takes for a git directory: it
// holds HEAD, objects and refs.
func bareRepo(d string) bool {
	for _, f := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(d, f)); err != nil {
			return false
		}
	}
	return true
}
