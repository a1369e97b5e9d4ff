package shellscan

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// wrapper describes a program that runs another program given as its
// operands: its options, what comes between them and the program, and
// which options mean it runs nothing.
type wrapper struct {
	optSpec
	assigns   bool   // NAME=VALUE words may come before the program
	skip      int    // operands before the program (timeout's duration, chroot's root)
	noRun     string // short options after which nothing is run (command -v, sudo -l)
	noRunLong []string
	sameShell bool // a builtin: the program runs in this shell
}

// wrappers are the programs that run their operands as a command. Shells,
// eval-like builtins, xargs and find have their own handlers in inside.
var wrappers = map[string]wrapper{
	"command":    {optSpec: optSpec{}, noRun: "vV", sameShell: true},
	"builtin":    {sameShell: true},
	"exec":       {optSpec: optSpec{short: "a"}, sameShell: true},
	"nohup":      {},
	"nice":       {optSpec: optSpec{short: "n", long: []string{"adjustment"}}},
	"time":       {optSpec: optSpec{short: "fo", long: []string{"format", "output"}}},
	"timeout":    {optSpec: optSpec{short: "sk", long: []string{"signal", "kill-after"}}, skip: 1},
	"stdbuf":     {optSpec: optSpec{short: "ioe", long: []string{"input", "output", "error"}}},
	"setsid":     {},
	"ionice":     {optSpec: optSpec{short: "cnpPu", long: []string{"class", "classdata", "pid", "pgid", "uid"}}, noRun: "pPu", noRunLong: []string{"pid", "pgid", "uid"}},
	"unbuffer":   {},
	"chroot":     {optSpec: optSpec{long: []string{"userspec", "groups"}}, skip: 1},
	"busybox":    {},
	"pkexec":     {optSpec: optSpec{long: []string{"user"}}},
	"caffeinate": {optSpec: optSpec{short: "tw"}},
	"sudo": {
		optSpec: optSpec{
			short: "aCcDgpRrTtUu",
			long: []string{"auth-type", "close-from", "login-class", "chdir", "group", "prompt",
				"chroot", "role", "type", "command-timeout", "other-user", "user", "host"},
		},
		assigns:   true,
		noRun:     "elvKVh",
		noRunLong: []string{"edit", "list", "validate", "remove-timestamp", "version", "help"},
	},
	"doas": {optSpec: optSpec{short: "aCu"}, noRun: "C"},
	// Tracers, namespaces and service managers run their operands too.
	"strace": {optSpec: optSpec{short: "abeEIoOpPsSuUX", long: []string{"output", "attach", "trace", "signal", "string-limit", "user", "env", "trace-path",
		"summary-sort-by", "columns", "raw", "abbrev", "verbose", "status", "inject", "fault", "decode-fds", "quiet", "const-print-style",
		"absolute-timestamps", "timestamps", "seccomp-bpf", "trace-fds", "read", "write", "kvm", "argv0"}}},
	"ltrace": {optSpec: optSpec{short: "aADeFlnopsuwx", long: []string{"output", "library", "indent"}}},
	"unshare": {optSpec: optSpec{short: "RwSG", long: []string{"root", "wd", "setuid", "setgid", "map-user", "map-group",
		"map-users", "map-groups", "propagation", "monotonic", "boottime"}}},
	"nsenter": {optSpec: optSpec{short: "tSGW", long: []string{"target", "setuid", "setgid", "wdns", "env"}}},
	"systemd-run": {optSpec: optSpec{short: "pEMHu", long: []string{"unit", "property", "description", "slice", "setenv",
		"uid", "gid", "nice", "working-directory", "machine", "host", "service-type", "on-active", "on-boot",
		"on-startup", "on-unit-active", "on-unit-inactive", "on-calendar", "timer-property", "path-property", "socket-property"}}},
	"env": {
		optSpec: optSpec{short: "uCSPa", long: []string{"unset", "chdir", "split-string", "argv0"}},
		assigns: true,
	},
}

// shells run a command string given with -c, or a script read from
// standard input when given none.
var shells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true,
	"ash": true, "yash": true, "fish": true, "rbash": true, "posh": true, "oksh": true,
	"csh": true, "tcsh": true,
}

// runuserOpts are runuser's options with a value, for its `runuser -u
// USER [--] COMMAND…` form (its -c form is su's).
var runuserOpts = optSpec{short: "ugGsw", long: []string{"user", "group", "supp-group", "shell", "whitelist-environment"}}

// sshOpts are ssh's options with a value: what follows them is its host,
// then the remote command.
var sshOpts = optSpec{short: "BbcDEeFIiJLlmOoPpQRSWw"}

// inside looks into a command for the commands it runs and applies the
// builtins that change this shell's state.
func (w *walker) inside(c *call, name string) {
	args := c.args[1:]
	if wr, ok := wrappers[name]; ok {
		w.unwrap(c, name, wr, args)
		return
	}
	lower := strings.TrimSuffix(strings.ToLower(name), ".exe")
	if (otherShells[lower] || ownSyntaxRunners[lower]) && (!c.spec || len(args) > 0) {
		// Not POSIX shell code, or commands in a syntax of their own:
		// whatever it runs is unknown.
		w.dynamicAll(c.text, appendVia(c.via, name), c.cwd)
	}
	if shells[name] {
		w.shell(c, name, args)
		return
	}
	if in, ok := interpreters[interpreterName(name)]; ok {
		if interpreted(in, args) && (!c.spec || codeGiven(in, args)) {
			w.dynamicAll(c.text, appendVia(c.via, name), c.cwd)
		} else if s, ok := firstOperand(args); ok {
			w.noteRun(c, s) // python x.py
		}
		return
	}
	switch name {
	case "make", "gmake":
		w.noteMake(c, args)
	case "git":
		w.noteGit(c)
	case "cd", "pushd":
		w.cd(c, name, args)
	case "popd":
		c.st.cwd = ""
	case "source", ".":
		c.st.forget()
		if len(args) > 0 {
			w.noteRun(c, args[0])
		}
		if len(args) > 0 && (args[0].dynamic || fdPath(args[0].s) || stdinPath(args[0].s)) {
			// `source <(…)`, `. /dev/stdin`: code that is no file.
			w.dynamicAll(c.text, appendVia(c.via, name), c.cwd)
		}
	case "vi", "vim", "nvim", "view", "vimdiff", "gvim", "rvim", "ex", "emacs", "emacsclient":
		if editorRuns(name, args) {
			w.dynamicAll(c.text, appendVia(c.via, name), c.cwd)
		}
	case "eval":
		w.eval(c, args)
	case "read", "mapfile", "readarray", "getopts", "printf", "let", "export", "declare",
		"typeset", "local", "readonly", "set":
		if name == "set" {
			c.st.hasPos = false // set -- a b replaces the arguments
		}
		// Whatever they may assign is no longer known; a variable
		// that carries code, given a value not shown, runs it.
		for _, a := range args {
			n, v, hasVal := strings.Cut(a.s, "=")
			if syntax.ValidName(n) {
				c.st.set(n, value{})
				switch {
				case hasVal:
					w.noteCodeAssign(n, v, !a.dynamic, c.text, c.via, c.cwd)
				case name == "read" || name == "mapfile" || name == "readarray" || name == "getopts" ||
					name == "printf" || name == "let":
					w.noteCodeAssign(n, "", false, c.text, c.via, c.cwd) // a value not shown
				}
			}
		}
	case "shift":
		// shift N drops arguments; a count we cannot read, or any
		// shift outside a call we follow, leaves them unknown.
		n := 1
		if len(args) > 0 {
			n = -1
			if v, err := strconv.Atoi(args[0].s); err == nil && !args[0].dynamic && v >= 0 {
				n = v
			}
		}
		if c.st.hasPos && n >= 0 && n <= len(c.st.pos) {
			c.st.pos = c.st.pos[n:]
		} else {
			c.st.hasPos = false
		}
	case "unset":
		for _, a := range args {
			if syntax.ValidName(a.s) && !a.dynamic {
				c.st.set(a.s, value{unset: true})
			}
		}
	case "alias":
		// A shell alias changes what a later word of the line (or of the
		// session) runs, and when it applies depends on the shell (dash
		// expands aliases in scripts, bash only with expand_aliases):
		// dynamic. Its value is read too, as the command it names.
		for _, a := range args {
			if _, v, ok := strings.Cut(a.s, "="); ok || a.dynamic {
				w.dynamicAll(c.text, appendVia(c.via, "alias"), c.cwd)
				w.nested(c, v, a.dynamic, newState(c.cwd), "alias")
			}
		}
	case "shopt":
		for _, a := range args {
			if a.s == "expand_aliases" || a.dynamic {
				w.dynamicAll(c.text, c.via, c.cwd)
			}
		}
	case "sed", "gsed":
		if sedRuns(args) {
			w.dynamicAll(c.text, appendVia(c.via, name), c.cwd)
		}
	case "awk", "gawk", "mawk", "nawk":
		if awkRuns(args) {
			w.dynamicAll(c.text, appendVia(c.via, name), c.cwd)
		}
	case "trap":
		_, i := optSpec{}.scan(args)
		if len(args)-i >= 2 && args[i].s != "-" {
			w.nested(c, args[i].s, args[i].dynamic, newState(""), "trap")
		}
	case "watch":
		w.watch(c, args)
	case "su", "runuser", "script":
		if v, ok := commandOpt(args); ok {
			w.nested(c, v.s, v.dynamic, newState(c.cwd), name+" -c")
		} else if name == "runuser" {
			w.unwrap(c, name, wrapper{optSpec: runuserOpts}, args)
		}
	case "sg":
		// sg GROUP [-c] COMMAND: the command is shell code.
		if len(args) >= 2 {
			rest := args[1:]
			if rest[0].s == "-c" {
				rest = rest[1:]
			}
			w.nestedWords(c, rest, "sg")
		}
	case "ssh":
		// ssh [options] HOST [options] COMMAND…: the words after the host
		// and any options that follow it (OpenSSH reads those too) are
		// shell code, run by the remote user's shell.
		if _, i := sshOpts.scan(args); i+1 < len(args) {
			if _, j := sshOpts.scan(args[i+1:]); i+1+j < len(args) {
				w.nestedWords(c, args[i+1+j:], "ssh")
			}
		}
	case "agenthooks", "agenthooks.exe", "agenthooks-engine", "agenthooks-engine.exe":
		w.agenthooks(c, args)
	case "flock":
		w.flock(c, args)
	case "xargs":
		w.xargs(c, args)
	case "find":
		w.findExec(c, args)
	default:
		w.speculate(c, name, args)
	}
}

// agenthooksExec is what `agenthooks exec` (and `agenthooks -c`, its
// $SHELL form) takes before its command: the options with a value
// (-c STRING among them; the last one given wins).
var agenthooksExec = optSpec{short: "cw", long: []string{"command", "ask", "conversation", "workspace"}}

// agenthooks looks into agenthooks' own shell gate, which runs its
// command: `agenthooks -c STRING` (-lc, as an agent's $SHELL), `agenthooks
// exec -c STRING`, `agenthooks exec STRING` (one operand: shell code) and
// `agenthooks exec PROGRAM ARG...`. Its other verbs run nothing. A gate
// inside the command is no reason to look away: whatever lets that inner
// gate pass (AGENTHOOKS_HOOK, the variable set for hooks) is in the
// command's own text.
func (w *walker) agenthooks(c *call, args argv) {
	if len(args) == 0 {
		return
	}
	if args[0].dynamic {
		w.dynamicAll(c.text, appendVia(c.via, "agenthooks"), c.cwd)
		return
	}
	via := "agenthooks"
	if args[0].s == "exec" {
		args, via = args[1:], "agenthooks exec"
	} else if !strings.HasPrefix(args[0].s, "-") {
		return // another verb: it runs no command
	}
	for _, a := range args {
		if a.dynamic {
			// `agenthooks exec $flags …`: the flags may be -c.
			w.dynamicAll(c.text, appendVia(c.via, via), c.cwd)
			return
		}
		if a.s == "--" || !strings.HasPrefix(a.s, "-") {
			break
		}
	}
	opts, i := agenthooksExec.scan(args)
	if v, ok := optValue(opts, "c", "command"); ok {
		// exec runs sh -c -- STRING: the string is the script whatever
		// it starts with.
		w.nested(c, v.s, v.dynamic, newState(c.cwd), via+" -c")
		return
	}
	switch rest := args[i:]; len(rest) {
	case 0:
	case 1:
		w.nested(c, rest[0].s, rest[0].dynamic, newState(c.cwd), via)
	default:
		sub := c.sub(rest, via)
		sub.st = c.st.clone()
		w.run(sub)
	}
}

// commandOpt finds a -c COMMAND (or --command=COMMAND) option anywhere
// among args: su, runuser, script and flock accept options after their
// operands.
func commandOpt(args argv) (field, bool) {
	for i, a := range args {
		switch {
		case a.dynamic:
		case a.s == "--":
			return field{}, false
		case a.s == "--command" || a.s == "--session-command":
			if i+1 < len(args) {
				return args[i+1], true
			}
		case strings.HasPrefix(a.s, "--command=") || strings.HasPrefix(a.s, "--session-command="):
			_, v, _ := strings.Cut(a.s, "=")
			return field{s: v}, true
		case len(a.s) > 1 && a.s[0] == '-' && a.s[1] != '-' && strings.HasSuffix(a.s, "c"):
			if i+1 < len(args) {
				return args[i+1], true
			}
		}
	}
	return field{}, false
}

// nestedWords analyses words that a program joins with spaces and runs as
// shell code (ssh's remote command, sg's).
func (w *walker) nestedWords(c *call, words argv, via string) {
	var parts []string
	dynamic := false
	for _, a := range words {
		parts = append(parts, a.s)
		dynamic = dynamic || a.dynamic
	}
	if len(parts) > 0 {
		w.nested(c, strings.Join(parts, " "), dynamic, newState(c.cwd), via)
	}
}

// nested analyses a command string that a program runs as shell code.
func (w *walker) nested(c *call, src string, dynamic bool, st *state, via string) {
	v := appendVia(c.via, via)
	if dynamic {
		w.dynamicAll(src, v, c.cwd)
		return
	}
	w.parseAndWalk(src, st, v, c.sc.depth+1)
}

// unwrap finds the program a wrapper runs and analyses it in turn.
func (w *walker) unwrap(c *call, name string, wr wrapper, args argv) {
	if name == "env" {
		args = expandSplitString(args)
	}
	opts, i := wr.scan(args)
	for _, o := range opts {
		if strings.Contains(wr.noRun, o.name) && len(o.name) == 1 || slices.Contains(wr.noRunLong, o.name) {
			return
		}
	}
	if name == "env" && i < len(args) && args[i].s == "-" && !args[i].dynamic {
		i++ // `env -`: -i
	}
	env := c.env
	if wr.assigns {
		var n int
		env, n = skipAssigns(args[i:], maps.Clone(env))
		for _, a := range args[i : i+n] {
			k, v, _ := strings.Cut(a.s, "=")
			w.noteCodeAssign(k, v, !a.dynamic, c.text, c.via, c.cwd)
		}
		i += n
	}
	i += wr.skip
	if i >= len(args) {
		return
	}
	sub := c.sub(args[i:], name)
	sub.env = env
	if wr.sameShell {
		sub.st = c.st
	} else {
		sub.st = c.st.clone()
	}
	dirOpts := map[string][]string{"env": {"C", "chdir"}, "sudo": {"D", "chdir"}}[name]
	if dir, ok := optValue(opts, dirOpts...); ok && len(dirOpts) > 0 {
		sub.cwd = chdirFrom(sub.cwd, dir)
	}
	w.run(sub)
}

// expandSplitString applies env -S STRING / --split-string=STRING: the
// string's words take its place among the arguments. -S may end a
// cluster of short options (`env -vS'git push'`, `env -iS 'git push'`).
func expandSplitString(args argv) argv {
	for i := 0; i < len(args); i++ {
		a := args[i]
		var s string
		var rest int
		switch {
		case a.s == "--" || !strings.HasPrefix(a.s, "-") || a.s == "-":
			return args
		case a.dynamic:
			// An option we cannot read may be -S: what runs is unknown.
			return append(append(argv{}, args[:i]...), field{s: a.s, dynamic: true})
		case a.s == "--split-string":
			if i+1 >= len(args) {
				return args
			}
			s, rest = args[i+1].s, i+2
			if args[i+1].dynamic {
				return append(append(argv{}, args[:i]...), field{s: s, dynamic: true})
			}
		case strings.HasPrefix(a.s, "--split-string="):
			s, rest = strings.TrimPrefix(a.s, "--split-string="), i+1
		case strings.HasPrefix(a.s, "--"):
			if name, _, has := strings.Cut(a.s[2:], "="); !has && slices.Contains(wrappers["env"].long, optSpec{long: wrappers["env"].long}.longName(name)) {
				i++ // the option's value is the next word
			}
			continue
		default:
			j := strings.IndexAny(a.s[1:], "uCSPa")
			if j < 0 {
				continue
			}
			j++
			if a.s[j] != 'S' {
				if j == len(a.s)-1 {
					i++ // -u NAME: the value is the next word
				}
				continue
			}
			if j < len(a.s)-1 {
				s, rest = a.s[j+1:], i+1
				break
			}
			if i+1 >= len(args) {
				return args
			}
			s, rest = args[i+1].s, i+2
			if args[i+1].dynamic {
				return append(append(argv{}, args[:i]...), field{s: s, dynamic: true})
			}
		}
		words, ok := splitWords(s)
		if !ok {
			words = argv{{s: s, dynamic: true}}
		}
		return append(append(append(argv{}, args[:i]...), words...), args[rest:]...)
	}
	return args
}

func chdirFrom(cwd string, dir field) string {
	if dir.dynamic {
		return ""
	}
	st := newState(cwd)
	st.chdir(dir.s)
	return st.cwd
}

// cd applies cd and pushd to the shell's directory.
func (w *walker) cd(c *call, name string, args argv) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") && len(args[i].s) > 1 && !args[i].dynamic {
		if args[i].s == "--" {
			i++
			break
		}
		if name == "pushd" && args[i].s != "-n" {
			c.st.cwd = "" // pushd -N rotates the stack
			return
		}
		i++
	}
	switch {
	case i >= len(args):
		if name == "pushd" {
			c.st.cwd = "" // swaps the top two directories
		} else {
			c.st.chdir("~")
		}
	case args[i].dynamic || name == "pushd" && strings.HasPrefix(args[i].s, "+"):
		c.st.cwd = ""
	default:
		c.st.chdir(args[i].s)
	}
}

// eval runs its arguments, joined by spaces, as shell code in this shell.
func (w *walker) eval(c *call, args argv) {
	if len(args) > 0 && args[0].s == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return
	}
	dynamic := false
	for _, a := range args {
		dynamic = dynamic || a.dynamic
	}
	if dynamic {
		w.dynamicAll(strings.Join(args.strings(), " "), appendVia(c.via, "eval"), c.cwd)
		c.st.forget()
		return
	}
	w.nested(c, strings.Join(args.strings(), " "), false, c.st, "eval")
}

// shell handles sh/bash/zsh/…: `-c STRING` is analysed as shell code in
// a fresh shell (unexported variables do not reach it, so none is
// known); a script read from standard input is analysed when it is a
// literal here-document or here-string, and is dynamic otherwise; a
// script file is opaque, like any program.
func (w *walker) shell(c *call, name string, args argv) {
	cmdString, stdin := false, false
	i := 0
scan:
	for i < len(args) {
		a := args[i]
		switch {
		case a.dynamic:
			if i+1 < len(args) {
				// `bash $flags "…"`: the flags may be -c.
				w.dynamicAll(c.text, appendVia(c.via, name), c.cwd)
				return
			}
			break scan
		case a.s == "--" || a.s == "-":
			i++
			break scan
		case a.s == "--rcfile" || a.s == "--init-file" || a.s == "--init-command" || a.s == "-C" && name == "fish":
			i += 2
		case a.s == "--command" && name == "fish":
			cmdString = true
			i++
		case strings.HasPrefix(a.s, "--command=") && name == "fish":
			w.nested(c, strings.TrimPrefix(a.s, "--command="), false, newState(c.cwd), name+" -c")
			return
		case strings.HasPrefix(a.s, "--"):
			i++
		case len(a.s) > 1 && (a.s[0] == '-' || a.s[0] == '+'):
			i++
			for _, ch := range a.s[1:] {
				switch ch {
				case 'c':
					cmdString = true
				case 's':
					stdin = true
				case 'o', 'O':
					i++
				}
			}
		default:
			break scan
		}
	}
	switch {
	case cmdString:
		if i < len(args) {
			w.nested(c, args[i].s, args[i].dynamic, newState(c.cwd), name+" -c")
		}
	case c.spec && !cmdString && !stdin && (i >= len(args) || args[i].dynamic):
		// A speculative shell that shows no code (`apt-get install
		// bash`): nothing plain to report.
	case stdin || i >= len(args) || stdinPath(args[i].s) && !args[i].dynamic:
		// `sh /dev/stdin <<EOF`, `bash /proc/self/fd/0`: standard input.
		w.shellStdin(c, name)
	case args[i].dynamic || fdPath(args[i].s):
		// `bash <(curl …)`, `bash /dev/fd/3 3<<EOF`, `bash "$script"`:
		// a script whose content is not a file of the workspace.
		w.dynamicAll(c.text, appendVia(c.via, name), c.cwd)
	default:
		w.noteRun(c, args[i]) // bash build.sh
	}
}

// shellStdin analyses the script a shell reads from its standard input.
func (w *walker) shellStdin(c *call, name string) {
	via := name + " <<"
	for _, r := range c.redirs {
		var word *syntax.Word
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			word = r.Hdoc
		case syntax.WordHdoc:
			word = r.Word
		case syntax.RdrIn:
			return // a script file: opaque, like `bash script.sh`
		default:
			continue
		}
		if word == nil {
			continue
		}
		if s, ok := w.literal(c.st, word); ok {
			w.nested(c, s, false, newState(c.cwd), via)
		} else {
			w.dynamicAll(c.sc.text(word), appendVia(c.via, via), c.cwd)
		}
		return
	}
	// Piped in, or inherited: unknown.
	w.dynamicAll(c.text, appendVia(c.via, via), c.cwd)
}

// watch runs its operands through sh -c, or directly with -x.
func (w *walker) watch(c *call, args argv) {
	opts, i := optSpec{short: "nq", long: []string{"interval"}}.scan(args)
	if i >= len(args) {
		return
	}
	if hasOpt(opts, "x", "exec") {
		sub := c.sub(args[i:], "watch")
		sub.st = c.st.clone()
		w.run(sub)
		return
	}
	dynamic := false
	for _, a := range args[i:] {
		dynamic = dynamic || a.dynamic
	}
	w.nested(c, strings.Join(args[i:].strings(), " "), dynamic, newState(c.cwd), "watch")
}

// flock runs `flock LOCK -c STRING` as shell code, or `flock LOCK CMD…`.
func (w *walker) flock(c *call, args argv) {
	if v, ok := commandOpt(args); ok {
		w.nested(c, v.s, v.dynamic, newState(c.cwd), "flock -c")
		return
	}
	_, i := optSpec{short: "wE", long: []string{"wait", "timeout", "conflict-exit-code"}}.scan(args)
	if i+1 >= len(args) {
		return
	}
	sub := c.sub(args[i+1:], "flock")
	sub.st = c.st.clone()
	w.run(sub)
}

// xargs runs its program (echo by default) with arguments read from its
// input, which are dynamic.
func (w *walker) xargs(c *call, args argv) {
	spec := optSpec{short: "adEILnPs", long: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"}}
	opts, i := spec.scan(args)
	prog := argv{{s: "echo"}}
	if i < len(args) {
		prog = append(argv{}, args[i:]...)
	}
	repl, ok := optValue(opts, "I")
	if !ok {
		for _, o := range opts {
			switch {
			case o.name == "i":
				repl, ok = field{s: "{}"}, true
			case o.name == "replace":
				repl, ok = field{s: "{}"}, true
				if o.has {
					repl = o.val
				}
			}
		}
	}
	if ok && repl.s != "" {
		for j := range prog {
			if strings.Contains(prog[j].s, repl.s) {
				prog[j].dynamic = true
			}
		}
	} else {
		prog = append(prog, field{s: "{input}", dynamic: true})
	}
	sub := c.sub(prog, "xargs")
	sub.st = c.st.clone()
	w.run(sub)
}

// findExec analyses the commands of find's -exec, -execdir, -ok and
// -okdir; the "{}" they are given is dynamic.
func (w *walker) findExec(c *call, args argv) {
	for i := 0; i < len(args); i++ {
		switch args[i].s {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := i + 1
		for j < len(args) && args[j].s != ";" && args[j].s != "+" {
			j++
		}
		if j > i+1 {
			prog := append(argv{}, args[i+1:j]...)
			for k := range prog {
				if strings.Contains(prog[k].s, "{}") {
					prog[k].dynamic = true
				}
			}
			sub := c.sub(prog, "find "+args[i].s)
			sub.st = c.st.clone()
			w.run(sub)
		}
		i = j
	}
}
