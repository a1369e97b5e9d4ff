package shellscan

import (
	"strings"
)

// otherShells are shells whose language is not the POSIX shell's: their
// code (given with -c, -Command, /c, on standard input, in a here-document
// or a file descriptor) is never read as POSIX shell code, so any run of
// one is dynamic. fish's and csh's -c strings are still read as far as
// the POSIX grammar goes, beside the dynamic entry.
var otherShells = setOf("fish", "csh", "tcsh", "pwsh", "powershell", "pwsh-preview", "cmd",
	"nu", "xonsh", "elvish", "rc", "es", "ion", "murex", "oil", "ysh")

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
			name, _, _ := strings.Cut(a.s[2:], "=")
			for _, l := range in.codeLong {
				if name == l {
					return true
				}
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
		case "-f", "--file", "-v", "--assign", "-F", "--field-separator":
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
