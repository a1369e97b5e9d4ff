package policy

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// lineInfo is the analysis of one command line: its commands, and what
// the line may do besides running them that decides which git aliases
// apply to them (see gitLine).
type lineInfo struct {
	cmds []Command
	// writes is set when a redirection may write a file: the file may be
	// a git configuration file.
	writes bool
	// gitEnv is set when the line may assign, export or unset a variable
	// that decides which git configuration applies (HOME, PATH, GIT_*…).
	gitEnv bool

	gitOnce sync.Once
	git     *gitLine
}

// analyzeLine is Commands, with the line's other facts.
func analyzeLine(line string) *lineInfo {
	w := &walker{visited: map[*syntax.CallExpr]bool{}}
	if words, ok := plainWords(line); ok {
		// A line of plain words needs no parser: the words are the
		// fields. It is interpreted exactly as a parsed one. It has no
		// redirection and no assignment (the first word holds no "=").
		args := make(argv, len(words))
		for i, s := range words {
			args[i] = field{s: s}
		}
		st := newState(".")
		w.run(&call{sc: &scope{src: line}, st: st, args: args, cwd: st.cwd, text: strings.TrimSpace(line)})
		for _, s := range words[1:] {
			name, _, _ := strings.Cut(s, "=")
			w.gitEnv = w.gitEnv || gitEnvVar(name)
		}
	} else {
		w.parseAndWalk(line, newState("."), nil, 0)
	}
	return &lineInfo{cmds: w.out, writes: w.writes, gitEnv: w.gitEnv}
}

// noteWords notes a literal word that names a variable git's
// configuration depends on: `export HOME`, `read PATH`, `unset
// GIT_DIR`, `source f` (which may set anything) all leave one.
func (w *walker) noteWords(words []*syntax.Word) {
	for i, word := range words {
		lit := word.Lit()
		name, _, _ := strings.Cut(lit, "=")
		if gitEnvVar(name) || i == 0 && (lit == "source" || lit == ".") {
			w.gitEnv = true
		}
	}
}

// redirectWrites reports whether r may write a file: an output
// redirection to anything but a duplicated descriptor or a device that
// stores nothing.
func redirectWrites(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.DplOut, syntax.RdrClob,
		syntax.AppClob, syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
	default:
		return false
	}
	if r.Word == nil {
		return true
	}
	target := r.Word.Lit()
	switch {
	case target == "":
		return true // quoted or expanded: unknown
	case r.Op == syntax.DplOut && (target == "-" || strings.Trim(target, "0123456789") == ""):
		return false // >&2, >&-
	case target == "/dev/null" || target == "/dev/stdout" || target == "/dev/stderr" || target == "/dev/tty":
		return false
	}
	return true
}
