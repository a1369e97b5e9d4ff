package gitpush

import (
	"strings"

	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// remoteUpdaters are git's programs, besides push and its plumbing, that
// can update a remote's refs: whatever they update is not read from
// their arguments, so they are dynamic pushes. receive-pack, shell and
// http-backend are the receiving end, which updates the repository it is
// given from what it reads; the remote helpers speak a protocol on their
// input. (svn dcommit, p4 submit, cvsexportcommit and lfs push update
// another system, or objects, not a git remote's refs: not pushes.)
var remoteUpdaters = setOf("receive-pack", "shell", "http-backend")

// gitProgram reports a program that runs git's commands: git itself, and
// the dashed programs of those that push (git-push, git-send-pack,
// git-http-push, git-receive-pack, git-subtree, git-remote-<helper>, …).
func gitProgram(name string) bool {
	if name == "git" {
		return true
	}
	sub, ok := strings.CutPrefix(name, "git-")
	if !ok {
		return false
	}
	switch sub {
	case "push", "send-pack", "http-push", "subtree":
		return true
	}
	return remoteUpdaters[sub] || strings.HasPrefix(sub, "remote-")
}

// updatesRemote reads the subcommands other than push that may update a
// remote, or run commands that may: ok is false for any other.
func updatesRemote(sub string, args []string, dyn []bool) (Push, bool) {
	first := ""
	if len(args) > 0 && !dyn[0] {
		first = args[0]
	}
	switch {
	case remoteUpdaters[sub] || strings.HasPrefix(sub, "remote-"):
		return dynPush, true
	case sub == "subtree":
		if first == "push" || len(args) > 0 && dyn[0] {
			return subtreePush(args[1:], dyn[1:]), true
		}
	case sub == "submodule" && hasWord(args, dyn, "foreach"),
		sub == "bisect" && first == "run",
		sub == "filter-branch",
		sub == "rebase" && hasOption(args, dyn, "-x", "--exec", "-i", "--interactive"),
		(sub == "difftool" || sub == "mergetool") && hasOption(args, dyn, "-x", "--extcmd", "-t", "--tool"):
		// They run a command line this analysis does not read.
		return dynPush, true
	}
	return Push{}, false
}

// subtreePush reads `git subtree push [options] <repository> <ref>`: it
// pushes a split history to refs/heads/<ref> (or <ref> as written when
// it starts with refs/).
func subtreePush(args []string, dyn []bool) Push {
	var operands []string
	for i := 0; i < len(args); i++ {
		if dyn[i] {
			return dynPush
		}
		a := args[i]
		switch {
		case a == "-P" || a == "--prefix" || a == "-m" || a == "--message" || a == "-b" ||
			a == "--branch" || a == "--onto" || a == "--annotate":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			operands = append(operands, a)
		}
	}
	if len(operands) != 2 {
		return dynPush
	}
	r := parseRefspec(operands[1])
	r.Src = ""
	return Push{Push: true, Remote: operands[0], Refspecs: []Refspec{r}}
}

// hasWord reports a literal word among args (or a dynamic one, which may
// be it).
func hasWord(args []string, dyn []bool, w string) bool {
	for i, a := range args {
		if dyn[i] || a == w {
			return true
		}
	}
	return false
}

// hasOption reports one of names given as an option (alone, with
// =value, or a short one leading a cluster), or a dynamic word.
func hasOption(args []string, dyn []bool, names ...string) bool {
	for i, a := range args {
		if dyn[i] {
			return true
		}
		if a == "--" {
			return false
		}
		for _, n := range names {
			if a == n || strings.HasPrefix(a, n+"=") ||
				len(n) == 2 && !strings.HasPrefix(a, "--") && strings.HasPrefix(a, "-") && strings.Contains(a[1:], n[1:]) {
				return true
			}
		}
	}
	return false
}

// pushConfigKey reports a configuration key that may choose what a push
// updates or where: the remote's push refspecs and mirror flag, the
// default remote, push.*, and a branch's upstream.
func pushConfigKey(key string) bool {
	key = strings.ToLower(key)
	if strings.HasPrefix(key, "push.") || strings.HasPrefix(key, "branch.") || key == "remote.pushdefault" {
		return true
	}
	if rest, ok := strings.CutPrefix(key, "remote."); ok {
		return strings.HasSuffix(rest, ".push") || strings.HasSuffix(rest, ".mirror")
	}
	return false
}

// commandKey reports a configuration key whose value is a command git
// (or a program git runs) may execute: pagers, editors, the ssh command,
// helpers, drivers, filters, hooks of the transfer protocol, the remote
// helper to use, and URL rewrites (which can name the ext:: helper).
func commandKey(key string) bool {
	key = strings.ToLower(key)
	switch key {
	case "core.pager", "core.editor", "sequence.editor", "core.sshcommand", "core.fsmonitor",
		"core.askpass", "core.hookspath", "credential.helper", "diff.external", "gpg.program",
		"interactive.difffilter", "uploadpack.packobjectshook", "sendemail.sendmailcmd":
		return true
	}
	for _, p := range []string{"pager.", "protocol.", "url.", "filter.", "credential."} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	for _, s := range []string{".textconv", ".command", ".driver", ".program", ".receivepack",
		".uploadpack", ".vcs", ".cmd", ".helper", ".proxy"} {
		if strings.HasSuffix(key, s) && !strings.HasPrefix(key, "alias.") {
			return true
		}
	}
	return false
}

// runsCommand reports a `-c key=value` whose value is a command that git
// may run and that is not plainly an inert program (shellscan.InertCommand:
// `git -c core.pager=cat log` is ordinary).
func runsCommand(kv string) bool {
	k, v, _ := strings.Cut(kv, "=")
	if !commandKey(k) {
		return false
	}
	return !shellscan.InertCommand(strings.TrimSpace(v))
}

// pushConfigured reports whether configuration may choose the
// destination of a refspec that names none: a -c of the command, a
// `git config` of the line, or the repository's configuration (read as
// the aliases are, cached). Without a directory the repository's
// configuration is not known and is taken to set no push refspecs (see
// docs/policies.md). What the directory and the repository said is noted
// in the resolver's basis, for Basis.Holds.
func (r *gitResolver) pushConfigured(inv gitInv) bool {
	if inv.pushConfig {
		return true
	}
	if r.li != nil {
		if g := r.li.gitLine(); g.tainted || g.pushConfig {
			return true
		}
	}
	if inv.noConfig {
		return true
	}
	r.basis.dirUsed = true
	if inv.dir == "" {
		return false
	}
	loc := gitLocation{dir: inv.dir, gitDir: inv.gitDir}
	configured := repoPushConfig(r.ctx, r.env, loc, r)
	r.basis.note(pushCheck{loc: loc, configured: configured})
	return configured
}
