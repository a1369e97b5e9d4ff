package gitpush

// Git runs a subcommand in this order: its builtin of that name, else an
// external program git-<name> (in its exec-path, then PATH), else the
// alias of that name. An alias never overrides a builtin, so a builtin is
// what it is without reading any configuration; anything else may be an
// alias and has to be looked up.
//
// gitBuiltins are the subcommands every git since 2.17 (2018) runs itself,
// compiled in or shipped as a script with git's core: for these no alias
// is consulted. A command added to git later is in gitKnown instead: an
// older git would run an alias of that name.
var gitBuiltins = setOf(
	"add", "am", "annotate", "apply", "archive", "bisect", "blame", "branch", "bundle",
	"cat-file", "check-attr", "check-ignore", "check-mailmap", "check-ref-format", "checkout",
	"checkout-index", "cherry", "cherry-pick", "clean", "clone", "column", "commit",
	"commit-tree", "config", "count-objects", "credential", "credential-cache",
	"credential-cache--daemon", "credential-store", "describe", "diff", "diff-files",
	"diff-index", "diff-tree", "difftool", "fast-export", "fast-import", "fetch", "fetch-pack",
	"filter-branch", "fmt-merge-msg", "for-each-ref", "format-patch", "fsck", "fsck-objects",
	"gc", "get-tar-commit-id", "grep", "hash-object", "help", "index-pack", "init", "init-db",
	"interpret-trailers", "log", "ls-files", "ls-remote", "ls-tree", "mailinfo", "mailsplit",
	"merge", "merge-base", "merge-file", "merge-index", "merge-octopus", "merge-one-file",
	"merge-ours", "merge-recursive", "merge-recursive-ours", "merge-recursive-theirs",
	"merge-resolve", "merge-subtree", "merge-tree", "mergetool", "mktag", "mktree", "mv",
	"name-rev", "notes", "pack-objects", "pack-refs", "patch-id", "prune", "prune-packed",
	"pull", "push", "quiltimport", "read-tree", "rebase", "receive-pack", "reflog", "remote",
	"remote-ext", "remote-fd", "repack", "replace", "request-pull", "rerere", "reset",
	"rev-list", "rev-parse", "revert", "rm", "send-pack", "shortlog", "show", "show-branch",
	"show-index", "show-ref", "stage", "stash", "status", "stripspace", "submodule",
	"symbolic-ref", "tag", "unpack-file", "unpack-objects", "update-index", "update-ref",
	"update-server-info", "upload-archive", "upload-pack", "var", "verify-commit",
	"verify-pack", "verify-tag", "version", "web--browse", "worktree", "write-tree",
)

// gitKnown are git's own commands that some gits lack: added after 2.17,
// deprecated or removed since, or packaged apart from git's core (svn,
// send-email, gui, p4, …), and git-lfs. None of them pushes a ref. Without
// an alias of the same name they are what they say; with one, the alias
// runs where the command is missing, so it is followed too.
var gitKnown = setOf(
	"add--interactive", "backfill", "bisect--helper", "bugreport", "checkout--worker",
	"citool", "commit-graph", "credential-gnome-keyring", "credential-libsecret",
	"credential-manager", "credential-manager-core", "credential-netrc",
	"credential-osxkeychain", "credential-wincred", "cvsexportcommit", "cvsimport",
	"cvsserver", "daemon", "diagnose", "difftool--helper", "env--helper", "for-each-repo",
	"fsmonitor--daemon", "gui", "history", "hook", "http-backend", "http-fetch", "http-push",
	"imap-send", "instaweb", "last-modified", "lfs", "maintenance", "mergetool--lib",
	"multi-pack-index", "p4", "pack-redundant", "pickaxe", "range-diff", "refs",
	"remote-ftp", "remote-ftps", "remote-http", "remote-https", "replay", "repo", "restore",
	"send-email", "sh-i18n", "sh-i18n--envsubst", "sh-setup", "shell", "sparse-checkout",
	"submodule--helper", "subtree", "svn", "switch", "upload-archive--writer", "whatchanged",
	"archimport",
)

// gitRepoMakers create or attach repositories, whose configuration (from
// a template, `clone -c`, a submodule's own) then applies to the git
// commands run in them.
var gitRepoMakers = setOf("init", "init-db", "clone", "submodule", "worktree")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
