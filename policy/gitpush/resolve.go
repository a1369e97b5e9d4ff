package gitpush

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/internal/shellquote"
	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// maxAliasDepth bounds alias expansion: an alias of an alias …, and the
// git commands inside shell aliases. Git itself refuses a loop; past the
// bound, or on a loop, the command is dynamic. maxAliasSteps bounds the
// expansions of one command in all: each alias may have several values,
// so a hostile line could otherwise make their combinations explode.
const (
	maxAliasDepth = 16
	maxAliasSteps = 256
)

// dynPush is a git command that may be a push and cannot be read.
var dynPush = Push{Push: true, Dynamic: true}

// gitResolver reads git commands as git runs them, following aliases.
type gitResolver struct {
	// ctx bounds the runs of git; it is made only when git runs.
	ctx func() context.Context
	// env is the environment the command runs in (nil: this process's):
	// git's variables in it choose the configuration and programs.
	env []string
	// li is the command's line: what it does to aliases is read from it
	// only when an alias has to be looked up.
	li *Line
	// basis is what the answer rests on besides the line: its other is
	// set once the answer depended on the configured aliases or the
	// programs on disk, which Basis.Holds does not check.
	basis Basis
	steps int // expansions so far (maxAliasSteps)
	// read keeps the configuration read during this analysis, so that
	// the aliases and push mappings of one location are read once.
	read map[gitLocation]*aliasEntry
}

// configured is configured() read once per location and analysis.
func (r *gitResolver) configured(loc gitLocation) (*aliasEntry, bool) {
	if e, ok := r.read[loc]; ok {
		return e, e != nil
	}
	e, ok := configured(r.ctx, r.env, loc)
	if r.read == nil {
		r.read = map[gitLocation]*aliasEntry{}
	}
	if !ok {
		e = nil
	}
	r.read[loc] = e
	return e, ok
}

// gitInv is the state a git invocation passes on to what it runs: its
// directory and git directory, and the aliases given with -c (git passes
// them on to the commands of a shell alias).
type gitInv struct {
	dir    string // absolute; "" when unknown
	gitDir string // --git-dir, absolute; "" when not given
	// cli are the alias.X values given with -c or --config-env.
	cli map[string]aliasDef
	// cliUnknown is set by a -c that may define aliases in a way that
	// cannot be read (an include, a dynamic value).
	cliUnknown bool
	// noConfig is set when the configured aliases are not those of
	// this user in this directory: another user (sudo), another
	// environment, or a git directory that cannot be read.
	noConfig bool
	// execPathUnknown is set when git looks for its git-<name> programs
	// elsewhere than where we do (--exec-path=, GIT_EXEC_PATH, PATH).
	execPathUnknown bool
	// chain lists the aliases being expanded, to detect a loop.
	chain []string
	// pushConfig is set by a -c that may choose what a push updates
	// (remote.<name>.push, push.*, branch.*).
	pushConfig bool
	// redirected is set when the command is sent to another directory
	// or git directory than its line's (-C, cd, --git-dir, GIT_DIR,
	// --bare): it may work in a remote's repository (foreignRepo).
	redirected bool
	// gitDirUnknown is set by a --git-dir or GIT_DIR whose value cannot
	// be read.
	gitDirUnknown bool
	// speculative is set for a git command an unknown program may run
	// (`apt-get install git curl`, shellscan's speculate): a subcommand
	// that is neither git's own nor an alias (or whose aliases cannot be
	// read) is an argument rather than a push; one that cannot be read
	// at all is still a dynamic push.
	speculative bool
}

// command reads one command of a line whose directory is dir.
func (r *gitResolver) command(c *shellscan.Command, dir string, depth int) Push {
	return r.commandIn(c, dir, gitInv{}, depth)
}

// run reads git's global options, then its subcommand.
func (r *gitResolver) run(args []string, dyn []bool, inv gitInv, depth int) Push {
	i := 0
	for i < len(args) {
		if dyn[i] {
			return dynPush // an option or the subcommand we cannot read
		}
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		valDyn := false
		if isGitValueOption(a) {
			if i+1 >= len(args) {
				return Push{} // git stops: the option lacks its value
			}
			name, val, hasVal, valDyn = a, args[i+1], true, dyn[i+1]
			i++
		}
		i++
		switch name {
		case "-C":
			inv.dir = chdirGit(inv.dir, val, valDyn)
			inv.redirected = inv.redirected || val != ""
		case "-c":
			if valDyn {
				return dynPush // it could define an alias
			}
			if runsCommand(val) {
				return dynPush
			}
			if k, _, _ := strings.Cut(val, "="); selectsConfig(strings.ToLower(k)) {
				return dynPush // a file's configuration: any key, a command among them
			}
			inv.setCLI(val)
		case "--config-env":
			key, _, _ := strings.Cut(strings.ToLower(val), "=")
			switch {
			case valDyn || selectsConfig(key):
				return dynPush
			case pushConfigKey(key):
				inv.pushConfig = true
			case commandKey(key):
				return dynPush // a command from the agent's environment
			case strings.HasPrefix(key, "alias."):
				inv.setCLIDef(key, aliasDef{dynamic: true}) // the value is in the agent's environment
			}
		case "--git-dir":
			inv.redirected = true
			switch {
			case valDyn || inv.dir == "" && !filepath.IsAbs(val):
				inv.noConfig = true
				inv.gitDirUnknown = true
			default:
				inv.gitDir = shellscan.JoinDir(inv.dir, val)
			}
		case "--bare":
			inv.gitDir = inv.dir
			inv.redirected = true
			inv.gitDirUnknown = inv.gitDirUnknown || inv.dir == ""
		case "--exec-path":
			if hasVal {
				inv.execPathUnknown = true // its git-<name> programs come before aliases
			}
		}
	}
	if i >= len(args) {
		return Push{}
	}
	if inv.redirected && !readOnlyGit[args[i]] && !pushSub(args[i]) {
		r.basis.other = true // it rests on the file system
		if foreignRepo(inv) {
			return dynPush
		}
	}
	return r.sub(args[i], args[i+1:], dyn[i+1:], inv, depth)
}

// pushSub reports push and its plumbing, whose destination is read from
// their arguments wherever they run.
func pushSub(sub string) bool {
	return sub == "push" || sub == "send-pack" || sub == "http-push"
}

// sub reads a subcommand and its arguments.
func (r *gitResolver) sub(sub string, args []string, dyn []bool, inv gitInv, depth int) Push {
	if pushSub(sub) {
		// send-pack and http-push are push's plumbing: [options]
		// DESTINATION [REF…].
		if len(args) == 1 && args[0] == "-h" || len(args) > 0 && args[0] == "--help" && !dyn[0] {
			return Push{} // help, nothing pushed
		}
		p, srcOnly := pushArgs(args, dyn)
		if len(srcOnly) > 0 && r.pushConfigured(inv) {
			// remote.<name>.push may map the source to any destination.
			for _, i := range srcOnly {
				p.Refspecs[i].Dst = ""
			}
		}
		return p
	}
	if p, ok := updatesRemote(sub, args, dyn); ok {
		return p
	}
	if gitBuiltins[sub] {
		if sub == "config" && readGitConfig(args, dyn).command {
			// It configures a command git runs later (core.hooksPath,
			// core.pager, an include): what runs cannot be read.
			return dynPush
		}
		if depth > 0 && changesConfig(sub, args, dyn) {
			// An alias that rewrites aliases (or makes a repository):
			// what the line's other commands then run cannot be read.
			return dynPush
		}
		return Push{}
	}
	name := strings.ToLower(sub)
	if depth >= maxAliasDepth || slices.Contains(inv.chain, name) {
		return dynPush
	}
	if gitKnown[sub] && !inv.execPathUnknown {
		// Installed (as a builtin's dashed link, a script or a program
		// in PATH), it runs before any alias of its name.
		r.basis.other = true
		if exists, known := externalExists(r.ctx(), r.env, sub); known && exists {
			return Push{}
		}
	}
	cands, ok := r.candidates(name, inv)
	if inv.speculative && (!ok || len(cands) == 0) {
		return Push{}
	}
	if !ok {
		return dynPush
	}
	if len(cands) == 0 {
		if gitKnown[sub] {
			return Push{} // missing here: git says it is not a command
		}
		// Not git's own and no alias: an external git-<sub>, which we
		// cannot see, or an error.
		return dynPush
	}
	if !gitKnown[sub] {
		r.basis.other = true
		exists, known := externalExists(r.ctx(), r.env, sub)
		if inv.execPathUnknown || !known || exists {
			return dynPush // git would run a program we cannot see, not the alias
		}
	}
	var out Push
	next := inv
	next.chain = append(slices.Clone(inv.chain), name)
	for _, d := range cands {
		out = mergePush(out, r.expand(d, args, dyn, next, depth+1))
	}
	return out
}

// candidates lists the values the alias name may have when the command
// runs: a -c on the command decides alone; otherwise any definition on
// the line, and the configured value. ok is false when that cannot be
// known.
func (r *gitResolver) candidates(name string, inv gitInv) ([]aliasDef, bool) {
	if inv.cliUnknown {
		return nil, false
	}
	if d, found := inv.cli[name]; found {
		return []aliasDef{d}, true
	}
	// From here on the answer depends on the directory, and on the
	// configuration: it is not kept with the line.
	r.basis.other = true
	var out []aliasDef
	line := &gitLine{}
	if r.li != nil {
		line = r.li.gitLine()
	}
	out = append(out, line.defs[name]...)
	if line.tainted || inv.noConfig || inv.dir == "" {
		return nil, false
	}
	e, ok := r.configured(gitLocation{dir: inv.dir, gitDir: inv.gitDir})
	if !ok {
		return nil, false
	}
	if v, found := e.aliases[name]; found {
		out = append(out, aliasDef{value: v})
	}
	return out, true
}

// expand runs an alias's value with the arguments given after it.
func (r *gitResolver) expand(d aliasDef, args []string, dyn []bool, inv gitInv, depth int) Push {
	r.steps++
	if d.dynamic || r.steps > maxAliasSteps {
		return dynPush
	}
	if body, ok := strings.CutPrefix(d.value, "!"); ok {
		return r.shellAlias(body, args, dyn, inv, depth)
	}
	words, ok := splitAlias(d.value)
	if !ok || len(words) == 0 {
		return dynPush // git refuses it; we may split differently
	}
	all := append(words, args...)
	allDyn := append(make([]bool, len(words)), dyn...)
	return r.run(all, allDyn, inv, depth)
}

// shellAlias reads `!body`: git runs it with sh -c, the arguments after
// the alias appended ("$@"), from the repository's top level. Its
// commands are analysed as a line of their own; a git command in it is
// read with the same aliases (a -c given to the outer git is passed on).
func (r *gitResolver) shellAlias(body string, args []string, dyn []bool, inv gitInv, depth int) Push {
	var b strings.Builder
	b.WriteString(body)
	for i, a := range args {
		if dyn[i] {
			b.WriteString(` "$agenthooks_dynamic_argument"`) // never assigned: dynamic
			continue
		}
		b.WriteString(" " + shellquote.POSIXAlways(a))
	}
	li := ReadLine(b.String())
	if g := li.gitLine(); g.tainted || len(g.defs) > 0 {
		return dynPush // it rewrites aliases: what runs after cannot be read
	}
	var out Push
	cmds := li.Commands()
	for i := range cmds {
		c := &cmds[i]
		if c.Dynamic {
			return dynPush
		}
		dir := inv.dir
		if c.Cwd != "." && !filepath.IsAbs(c.Cwd) && !strings.HasPrefix(c.Cwd, "~") {
			dir = "" // relative to the top level, which we do not know
		}
		out = mergePush(out, r.commandIn(c, dir, inv, depth))
	}
	return out
}

// commandIn reads a command run by a git invocation outer (a shell
// alias), or by the line itself (outer is zero): it inherits the outer
// -c aliases, --git-dir (git exports both to what it runs) and alias
// chain.
func (r *gitResolver) commandIn(c *shellscan.Command, dir string, outer gitInv, depth int) Push {
	name := progName(c.Name)
	if !gitProgram(name) {
		return Push{}
	}
	if sub, ok := strings.CutPrefix(name, "git-"); ok {
		inv := outer
		inv.dir = shellscan.JoinDir(dir, c.Cwd)
		return r.sub(sub, c.Args, dynFlags(c), inv, maxAliasDepth) // a program: no alias of its name
	}
	inv := outer
	inv.dir = shellscan.JoinDir(dir, c.Cwd)
	inv.redirected = inv.redirected || c.Cwd != "."
	for _, v := range c.Via {
		inv.speculative = inv.speculative || strings.HasSuffix(v, "?")
	}
	for k, v := range c.Env {
		switch k {
		case "PATH", "GIT_EXEC_PATH":
			inv.execPathUnknown = true
		case "GIT_DIR":
			inv.redirected = true
			if v == "" || strings.ContainsAny(v, "$`") || inv.dir == "" && !filepath.IsAbs(v) {
				inv.gitDirUnknown = true
			} else {
				inv.gitDir = shellscan.JoinDir(inv.dir, v)
			}
		}
	}
	if r.li != nil && r.li.shell.TouchedClasses&touchesRepo != 0 {
		// An assignment of GIT_DIR (or a file sourced) on the line may
		// send it to another repository.
		inv.redirected = true
		inv.gitDirUnknown = true
	}
	for _, v := range c.Via {
		switch v {
		case "sudo", "doas", "pkexec", "su -c", "runuser -c", "chroot", "env":
			// Another user's configuration, or another environment.
			inv.noConfig = true
		}
	}
	return r.run(c.Args, dynFlags(c), inv, depth)
}

// setCLI applies `-c key=value` (or `-c key`, a boolean).
func (inv *gitInv) setCLI(kv string) {
	k, v, hasVal := strings.Cut(kv, "=")
	key := strings.ToLower(k)
	switch {
	case selectsConfig(key):
		inv.cliUnknown = true
	case strings.HasPrefix(key, "alias."):
		// Without a value it is a boolean, which git refuses as an alias.
		inv.setCLIDef(key, aliasDef{value: v, dynamic: !hasVal})
	case pushConfigKey(key):
		inv.pushConfig = true
	}
}

func (inv *gitInv) setCLIDef(key string, d aliasDef) {
	m := make(map[string]aliasDef, len(inv.cli)+1)
	for k, v := range inv.cli {
		m[k] = v
	}
	for _, n := range aliasNames(key[len("alias."):]) {
		m[n] = d
	}
	inv.cli = m
}

// changesConfig reports a subcommand that changes which aliases apply:
// a `git config` that defines or taints (see readGitConfig), or one that
// makes a repository.
func changesConfig(sub string, args []string, dyn []bool) bool {
	if gitRepoMakers[sub] {
		return true
	}
	if sub != "config" {
		return false
	}
	eff := readGitConfig(args, dyn)
	return eff.tainted || len(eff.defs) > 0
}
