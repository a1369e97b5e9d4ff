package shellscan

import (
	"slices"
	"strings"
)

// otherShells are shells whose language is not the POSIX shell's: their
// code (given with -c, -Command, /c, on standard input, in a here-document
// or a file descriptor) is never read as POSIX shell code, so any run of
// one is dynamic. fish's and csh's -c strings are still read as far as
// the POSIX grammar goes, beside the dynamic entry.
var otherShells = setOf("fish", "csh", "tcsh", "pwsh", "powershell", "pwsh-preview", "cmd",
	"nu", "xonsh", "elvish", "rc", "es", "ion", "murex", "oil", "ysh")

// ownSyntaxRunners run commands given in a syntax of their own (GNU
// parallel's ::: and {}, tmux's and screen's command lines, expect's
// Tcl, at's standard input, a terminal's -e): any run is dynamic.
var ownSyntaxRunners = setOf("parallel", "tmux", "screen", "expect", "at", "batch", "xterm",
	"gnome-terminal", "konsole", "entr", "watchexec", "concurrently", "nodemon", "dtach", "abduco")

// interpreter describes a program that runs code given inline: which
// short options take the code (in a cluster too: perl -ne), which long
// ones, which short options take a value (their value is not the
// script), and which subcommands take code.
type interpreter struct {
	code     string
	codeLong []string
	values   string
	codeSubs []string
}

// interpreters are the language runtimes an agent commonly reaches for.
// Code given inline or on standard input cannot be read as a shell line:
// it is dynamic. A script file is opaque, like any program (its file is
// what trust pins).
var interpreters = map[string]interpreter{
	"python":    {code: "c", values: "WXQm"},
	"pypy":      {code: "c", values: "WXQm"},
	"node":      {code: "ep", codeLong: []string{"eval", "print"}, values: "r"},
	"bun":       {code: "ep", codeLong: []string{"eval", "print"}, codeSubs: []string{"x", "repl"}},
	"deno":      {codeSubs: []string{"eval", "repl"}},
	"perl":      {code: "eE", values: "IMmx"},
	"ruby":      {code: "e", values: "IrCxE"},
	"php":       {code: "rRBEa"},
	"lua":       {code: "e", values: "l"},
	"luajit":    {code: "e", values: "l"},
	"julia":     {code: "eE", codeLong: []string{"eval", "print"}},
	"Rscript":   {code: "e"},
	"osascript": {code: "e"},
	"tclsh":     {},
	"wish":      {},
	"jshell":    {},
	"irb":       {},
	"ghci":      {code: "e"},
}

// codeLongOption reports a long option (--eval, --print=…) that takes
// code.
func (in interpreter) codeLongOption(opt string) bool {
	name, _, _ := strings.Cut(opt[2:], "=")
	return slices.Contains(in.codeLong, name)
}

// interpreterName is the interpreters key for a program name:
// python3.12 and python3 are python, pypy3 is pypy, X.exe is X.
func interpreterName(name string) string {
	name = strings.TrimSuffix(strings.ToLower(name), ".exe")
	switch {
	case strings.HasPrefix(name, "python"):
		return "python"
	case strings.HasPrefix(name, "pypy"):
		return "pypy"
	case name == "nodejs":
		return "node"
	case name == "rscript":
		return "Rscript"
	}
	return name
}

// stdinPaths name the file a program reads as its standard input.
func stdinPath(p string) bool {
	switch p {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/thread-self/fd/0":
		return true
	}
	return false
}

// fdPath reports a path that names an open file descriptor rather than a
// file in the workspace (/dev/fd/3, /proc/self/fd/5, /proc/123/fd/0):
// what it holds is not known.
func fdPath(p string) bool {
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/") && strings.Contains(p, "/fd/")
}

// interpreted reports a run of an interpreter that executes code the
// analysis cannot read: given inline, read from standard input (no
// script operand), or from a file descriptor. It reports false for a
// script file, `--version` and `--help`.
func interpreted(in interpreter, args argv) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.dynamic:
			return true
		case a.s == "--":
			return i+1 >= len(args) || args[i+1].dynamic || stdinPath(args[i+1].s) || fdPath(args[i+1].s)
		case a.s == "--version" || a.s == "--help" || a.s == "-V" || a.s == "-h" || a.s == "-v":
			return false
		case strings.HasPrefix(a.s, "--"):
			if in.codeLongOption(a.s) {
				return true
			}
		case len(a.s) > 1 && a.s[0] == '-':
			for j := 1; j < len(a.s); j++ {
				if strings.IndexByte(in.code, a.s[j]) >= 0 {
					return true
				}
				if strings.IndexByte(in.values, a.s[j]) >= 0 {
					if a.s[j] == 'm' {
						return false // python -m module: a module file, opaque
					}
					if j == len(a.s)-1 {
						i++ // the value is the next word
					}
					break
				}
			}
		default:
			for _, s := range in.codeSubs {
				if a.s == s {
					return true
				}
			}
			return stdinPath(a.s) || fdPath(a.s)
		}
	}
	return true // no script: the code comes from standard input
}

// awkRuns reports an awk program that may run commands: system(), a
// pipe to or from a command, or a program that cannot be read.
func awkRuns(args argv) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			return true
		}
		switch a.s {
		case "-f", "--file":
			// A program file: the workspace's, unless it is no file.
			if i+1 < len(args) && (args[i+1].dynamic || stdinPath(args[i+1].s) || fdPath(args[i+1].s)) {
				return true
			}
			i++
			continue
		case "-v", "--assign", "-F", "--field-separator":
			i++
			continue
		}
		if strings.Contains(a.s, "system") || strings.Contains(a.s, "|") || strings.Contains(a.s, "getline") {
			return true
		}
	}
	return false
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// sedRuns reports a sed run whose script may execute a command: GNU
// sed's `e` command and the `e` flag of `s`. A script from a file (-f) is
// the file's, like any program's; a script that cannot be read is
// dynamic. --sandbox refuses both, so nothing runs.
func sedRuns(args argv) bool {
	var scripts []field
	explicit := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.s == "--sandbox":
			return false
		case a.s == "-e" || a.s == "--expression":
			explicit = true
			if i+1 < len(args) {
				scripts = append(scripts, args[i+1])
				i++
			}
		case strings.HasPrefix(a.s, "--expression="):
			explicit = true
			scripts = append(scripts, field{s: strings.TrimPrefix(a.s, "--expression="), dynamic: a.dynamic})
		case a.s == "-f" || a.s == "--file" || a.s == "-l" || a.s == "--line-length":
			if a.s == "-f" || a.s == "--file" {
				explicit = true
			}
			i++
		case strings.HasPrefix(a.s, "-") && len(a.s) > 1 && !a.dynamic:
			if j := strings.IndexAny(a.s, "ef"); j > 0 && !strings.HasPrefix(a.s, "--") {
				explicit = true
				if a.s[j] == 'e' {
					if j+1 < len(a.s) {
						scripts = append(scripts, field{s: a.s[j+1:]})
					} else if i+1 < len(args) {
						scripts = append(scripts, args[i+1])
						i++
					}
				} else if j+1 == len(a.s) {
					i++
				}
			}
		default:
			if !explicit {
				scripts = append(scripts, a)
				explicit = true
			}
		}
	}
	for _, s := range scripts {
		if s.dynamic || sedScriptRuns(s.s) {
			return true
		}
	}
	return false
}

// sedScriptRuns reports a sed script holding an `e` command or an `s`
// command with the `e` flag. Addresses and the parts of `s` and `y` are
// skipped; anything it cannot follow counts as running.
func sedScriptRuns(s string) bool {
	i := 0
	skipDelimited := func(n int) bool { // n delimited parts after s[i], the delimiter
		if i >= len(s) {
			return false
		}
		d := s[i]
		i++
		for k := 0; k < n; k++ {
			for i < len(s) && s[i] != d {
				if s[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(s) {
				return false
			}
			i++
		}
		return true
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '{' || c == '}' || c == '!' ||
			c == ',' || c == '$' || c == '~' || c == '+' || '0' <= c && c <= '9':
			i++
		case c == '/' || c == '\\':
			if c == '\\' {
				i++
			}
			if !skipDelimited(1) {
				return true
			}
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case c == 'e':
			return true
		case c == 's' || c == 'y':
			i++
			if !skipDelimited(2) {
				return true
			}
			for i < len(s) && strings.IndexByte("gpiImMe0123456789w", s[i]) >= 0 {
				if s[i] == 'e' && c == 's' {
					return true
				}
				if s[i] == 'w' {
					break // w FILE: the rest of the line is the file
				}
				i++
			}
			for i < len(s) && s[i] != '\n' && s[i] != ';' && s[i] != '}' {
				i++
			}
		default:
			// Any other command: its argument (a, i, c text; r, w, b, t,
			// : labels and files) runs to the end of the line.
			for i < len(s) && s[i] != '\n' && (s[i] != ';' || strings.IndexByte("aicrwbtTRW:", c) >= 0) {
				i++
			}
		}
	}
	return false
}

// editorRuns reports an editor run that executes commands given on its
// command line: vim's -c, --cmd, +COMMAND, -S and -s (a script, sourced
// or typed), Ex mode reading its commands from standard input (ex, -e,
// -E), emacs' --eval, --load, --funcall, --script and batch mode.
// Opening files is inert.
func editorRuns(name string, args argv) bool {
	emacs := strings.HasPrefix(name, "emacs")
	if name == "ex" {
		return true // commands from standard input
	}
	for _, a := range args {
		if a.dynamic {
			return true
		}
		s := a.s
		if s == "--" {
			return false
		}
		if emacs {
			n, _, _ := strings.Cut(strings.TrimLeft(s, "-"), "=")
			switch n {
			case "eval", "load", "l", "funcall", "f", "script", "batch", "x", "e":
				if strings.HasPrefix(s, "-") {
					return true
				}
			}
			continue
		}
		switch {
		case s == "--cmd" || s == "-c" || s == "-S" || s == "-s" || s == "-e" || s == "-E" || s == "-es" || s == "-Es" || s == "-u":
			return true
		case strings.HasPrefix(s, "+") && strings.Trim(s[1:], "0123456789") != "":
			return true // +COMMAND (not +N, a line number)
		case len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsAny(s[1:], "cSseE"):
			return true // a cluster holding one of them
		}
	}
	return false
}

// firstOperand is the first argument that is not an option: an
// interpreter's script, roughly (an option's value may be taken for it,
// which only adds a file to compare).
func firstOperand(args argv) (field, bool) {
	for _, a := range args {
		if a.dynamic || !strings.HasPrefix(a.s, "-") {
			return a, true
		}
	}
	return field{}, false
}

// codeGiven reports an interpreter run that plainly shows code: an
// option or subcommand that takes code, or a script on a descriptor. A
// speculative run (speculate) without one is an argument, not a run.
func codeGiven(in interpreter, args argv) bool {
	for _, a := range args {
		switch {
		case a.dynamic:
		case strings.HasPrefix(a.s, "--"):
			if in.codeLongOption(a.s) {
				return true
			}
		case len(a.s) > 1 && a.s[0] == '-':
			if strings.ContainsAny(a.s[1:2], in.code) && in.code != "" {
				return true
			}
		default:
			for _, s := range in.codeSubs {
				if a.s == s {
					return true
				}
			}
			if stdinPath(a.s) || fdPath(a.s) {
				return true
			}
		}
	}
	return false
}
