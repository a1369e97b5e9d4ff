package gitpush

import (
	"strings"
	"sync"

	"github.com/agenthooks/agenthooks/internal/settings"
	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// gitLine is what a command line does to git's aliases, read from all of
// its commands: which aliases `git config` defines on it, and whether
// anything on it may change the configuration in a way that cannot be
// read, so that the aliases configured before the line ran no longer
// tell what an alias is.
//
// Every command of the line counts, wherever it is: a definition after
// its use may still run first (in a loop, in a function called later),
// and one in a branch may or may not run. So a name defined on the line
// may be any of its definitions or its configured value (see
// gitResolver.candidates): over-approximating only adds results.
type gitLine struct {
	// defs are the values given to alias.<name> (name lower-cased).
	defs map[string][]aliasDef
	// tainted is set when the configured aliases cannot be trusted for
	// this line: a redirection or a program that writes files, a
	// variable that selects the configuration (HOME, GIT_CONFIG_GLOBAL,
	// …), a command that cannot be read, a `git config` whose effect
	// cannot be read (a dynamic key, --edit, an include), or a command
	// that creates a repository.
	tainted bool
	// pushConfig is set when a `git config` of the line may set what a
	// push updates (remote.<name>.push, push.*, branch.*).
	pushConfig bool
}

// aliasDef is one value an alias may have.
type aliasDef struct {
	value   string
	dynamic bool // the value cannot be known statically
}

// Line is a command line read for git: its commands, and, computed once
// when first needed, what it does to git's aliases. Every command of one
// line is analysed with the same Line.
type Line struct {
	shell   *shellscan.Line
	gitOnce sync.Once
	git     *gitLine
}

// ReadLine analyses a shell command line for AnalyzeLine.
func ReadLine(line string) *Line {
	return &Line{shell: shellscan.Analyze(line, gitWatch)}
}

// LineOf is a line that holds only the given commands, and does nothing
// else: for a command that is not known to come from a line.
func LineOf(cmds ...shellscan.Command) *Line {
	return &Line{shell: &shellscan.Line{Commands: cmds}}
}

// Commands are the line's commands, as shellscan.Commands gives them.
func (li *Line) Commands() []shellscan.Command { return li.shell.Commands }

// gitLine returns what the line does to git's aliases, computed once.
func (li *Line) gitLine() *gitLine {
	li.gitOnce.Do(func() { li.git = scanGitLine(li.shell) })
	return li.git
}

// noGitEffect is the gitLine of a line that does nothing to git's
// configuration, shared (it is never written): most lines.
var noGitEffect = &gitLine{}

func scanGitLine(li *shellscan.Line) *gitLine {
	g := gitLine{tainted: li.Writes || li.Touches}
	for i := range li.Commands {
		g.command(&li.Commands[i])
	}
	if !g.tainted && !g.pushConfig && g.defs == nil {
		return noGitEffect
	}
	p := new(gitLine)
	*p = g
	return p
}

// command notes what one command does to git's configuration.
func (g *gitLine) command(c *shellscan.Command) {
	if c.Dynamic {
		g.tainted = true
		return
	}
	for k := range c.Env {
		if gitEnvVar(k) {
			g.tainted = true
		}
	}
	name := progName(c.Name)
	args, dyn := c.Args, dynFlags(c)
	if writesFiles(name, args) {
		g.tainted = true
		return
	}
	if sub, ok := strings.CutPrefix(name, "git-"); ok {
		g.subcommand(sub, args, dyn)
		return
	}
	if name != "git" {
		return
	}
	i, ok := skipGitOptions(args, dyn)
	if !ok {
		g.tainted = true // a dynamic option or subcommand: it may be `config`
		return
	}
	if i < len(args) {
		g.subcommand(args[i], args[i+1:], dyn[i+1:])
	}
}

func (g *gitLine) subcommand(sub string, args []string, dyn []bool) {
	switch {
	case sub == "config":
		eff := readGitConfig(args, dyn)
		g.tainted = g.tainted || eff.tainted
		g.pushConfig = g.pushConfig || eff.pushConfig
		for name, d := range eff.defs {
			if g.defs == nil {
				g.defs = map[string][]aliasDef{}
			}
			g.defs[name] = append(g.defs[name], d...)
		}
	case gitRepoMakers[sub]:
		g.tainted = true
	}
}

// skipGitOptions returns the index of the subcommand after git's global
// options; ok is false when an option or the subcommand is dynamic.
func skipGitOptions(args []string, dyn []bool) (int, bool) {
	i := 0
	for i < len(args) {
		if dyn[i] {
			return i, false
		}
		if !strings.HasPrefix(args[i], "-") {
			return i, true
		}
		if isGitValueOption(args[i]) {
			i++
		}
		i++
	}
	return i, true
}

// configEffect is what one `git config` does to aliases.
type configEffect struct {
	defs       map[string][]aliasDef
	tainted    bool
	pushConfig bool
	// command is set when it sets a key whose value git runs as a
	// command (commandKey), to anything but an inert program, or one
	// that includes another file's configuration.
	command bool
}

// Options of `git config` that take their value as the next word.
var configValueOpts = []string{"-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "--url"}

// configSubcommands are git config's subcommands (git 2.46 and later):
// a key holds a dot, so none of them can be a key.
var configSubcommands = setOf("list", "get", "set", "unset", "rename-section", "remove-section", "edit")

// readGitConfig reads a `git config` command line (the words after
// `config`) for the aliases it sets: `git config [--global|--local|
// --system|--worktree|--file F] alias.X VALUE`, `--add`, `--replace-all`,
// and `git config set [opts] alias.X VALUE`. A write it cannot read, an
// --edit, a section renamed or removed, and a key that selects other
// configuration (include.*, includeIf.*, extensions.*) taint.
func readGitConfig(args []string, dyn []bool) configEffect {
	var eff configEffect
	var operands []int
	action := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" && !dyn[i] {
			for j := i + 1; j < len(args); j++ {
				operands = append(operands, j)
			}
			break
		}
		if dyn[i] || !strings.HasPrefix(a, "-") || a == "-" {
			operands = append(operands, i)
			continue
		}
		name, _, hasVal := strings.Cut(a, "=")
		switch name {
		case "-e", "--edit", "--rename-section", "--remove-section":
			eff.tainted = true
			return eff
		case "--add", "--replace-all":
			action = "set"
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color",
			"--get-colorbool", "-l", "--list", "--unset", "--unset-all":
			action = "read" // an unset leaves the name to the configuration
		}
		for _, o := range configValueOpts {
			if name == o && !hasVal {
				i++ // its value: a dynamic one is harmless
			}
		}
	}
	if len(operands) > 0 && !dyn[operands[0]] && configSubcommands[args[operands[0]]] && action == "" {
		switch args[operands[0]] {
		case "set":
			action = "set"
		case "edit", "rename-section", "remove-section":
			eff.tainted = true
			return eff
		default:
			action = "read"
		}
		operands = operands[1:]
	}
	// A dynamic word may be any option, or the key: only the value of a
	// set may be dynamic.
	for n, i := range operands {
		if dyn[i] && n != 1 {
			eff.tainted = true
			return eff
		}
	}
	if action == "" && len(operands) >= 2 {
		action = "set"
	}
	if action != "set" || len(operands) < 2 {
		if len(operands) > 1 && dyn[operands[1]] {
			eff.tainted = true // a dynamic word where an option may be
		}
		return eff
	}
	k, v := operands[0], operands[1]
	key := strings.ToLower(args[k])
	if name, ok := strings.CutPrefix(key, "alias."); ok {
		eff.defs = map[string][]aliasDef{}
		d := aliasDef{value: args[v], dynamic: dyn[v]}
		for _, n := range aliasNames(name) {
			eff.defs[n] = append(eff.defs[n], d)
		}
		return eff
	}
	eff.tainted = selectsConfig(key)
	eff.pushConfig = pushConfigKey(key)
	eff.command = selectsConfig(key) || commandKey(key) && (dyn[v] || !shellscan.InertCommand(args[v]))
	return eff
}

// aliasNames lists the subcommand names a configuration key alias.<name>
// may define: the name, and for alias.<name>.command (the form that
// allows any character in a name) the name alone.
func aliasNames(name string) []string {
	if base, ok := strings.CutSuffix(name, ".command"); ok && base != "" {
		return []string{name, base}
	}
	return []string{name}
}

// selectsConfig reports keys that change which configuration git reads.
func selectsConfig(key string) bool {
	return strings.HasPrefix(key, "include.") || strings.HasPrefix(key, "includeif.") ||
		strings.HasPrefix(key, "extensions.")
}

// gitEnvVar reports variables that decide which git configuration or
// programs apply: the home directory, PATH (an external git-<name>
// comes before an alias), and git's own.
func gitEnvVar(name string) bool { return settings.GitVar(name) }

// The classes of gitWatch: a variable that chooses git's configuration
// or programs, and one that chooses its repository.
const (
	touchesConfig uint8 = 1 << iota
	touchesRepo
)

// gitWatch is the watch function of a line read for git (see
// shellscan.Analyze): GIT_DIR, GIT_WORK_TREE and GIT_COMMON_DIR choose
// the repository a git command works in.
func gitWatch(name string) uint8 {
	switch {
	case name == "GIT_DIR" || name == "GIT_WORK_TREE" || name == "GIT_COMMON_DIR":
		return touchesConfig | touchesRepo
	case gitEnvVar(name):
		return touchesConfig
	}
	return 0
}

// fileWriters are programs that write the files named in their
// arguments; a git configuration file may be one of them.
var fileWriters = setOf("tee", "cp", "mv", "ln", "install", "dd", "truncate", "rsync", "rm",
	"unlink", "shred", "tar", "unzip", "patch", "ed", "ex", "vi", "vim", "nvim", "nano",
	"emacs")

// writesFiles reports a command that may write a file: a file writer, or
// sed, perl or ruby editing in place (-i).
func writesFiles(name string, args []string) bool {
	if fileWriters[name] {
		return true
	}
	switch name {
	case "sed", "gsed", "perl", "ruby":
		for _, a := range args {
			if a == "--in-place" || strings.HasPrefix(a, "--in-place=") ||
				strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "i") {
				return true
			}
		}
	}
	return false
}
