package shellscan

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Line is the analysis of one command line: its commands, and what the
// line may do besides running them that a reader of one command needs to
// know (a git alias configured before the line may no longer hold once
// the line wrote a file or assigned HOME).
type Line struct {
	// Commands are those Commands returns.
	Commands []Command
	// Writes is set when a redirection may write a file.
	Writes bool
	// Touches is set when the line may assign, export, unset or read a
	// variable the watch function of Analyze selects, name one in a
	// literal word (`export HOME`, `env -u HOME`), or source a file
	// (which may set anything).
	Touches bool
	// TouchedClasses are the classes (bits) of the variables Touches is
	// set for, as the watch function of Analyze gives them; every bit
	// for a file sourced.
	TouchedClasses uint8
}

// Analyze is Commands, with the line's other facts. watch gives the
// class of a variable whose change Line.Touches reports, as one or more
// bits, or 0 for one not watched; nil watches none.
func Analyze(line string, watch func(name string) uint8) *Line {
	w := &walker{visited: map[*syntax.CallExpr]bool{}, watched: watch}
	if words, ok := plainWords(line); ok {
		// A line of plain words needs no parser: the words are the
		// fields. It is interpreted exactly as a parsed one. It has no
		// redirection and no assignment (the first word holds no "=").
		args := make(argv, len(words))
		for i, s := range words {
			args[i] = field{s: s}
		}
		st := newState(".")
		w.noteFiles = mayWrite(line) // `cp x .git/hooks/pre-push`
		w.run(&call{sc: &scope{src: line}, st: st, args: args, cwd: st.cwd, text: strings.TrimSpace(line)})
		w.writtenRuns()
		for _, s := range words[1:] {
			name, _, _ := strings.Cut(s, "=")
			w.touchIfWatched(name)
		}
	} else {
		w.noteFiles = mayWrite(line)
		w.parseAndWalk(line, newState("."), nil, 0)
		w.writtenRuns()
	}
	w.release()
	return &Line{Commands: w.out, Writes: w.writes, Touches: w.touches, TouchedClasses: w.touched}
}

// noteWords notes a literal word that names a watched variable: `export
// HOME`, `read PATH`, `unset GIT_DIR`, `source f` (which may set
// anything) all leave one.
func (w *walker) noteWords(words []*syntax.Word) {
	for i, word := range words {
		lit := word.Lit()
		name, _, _ := strings.Cut(lit, "=")
		switch {
		case i == 0 && (lit == "source" || lit == "."):
			w.touches, w.touched = true, 0xff
		default:
			w.touchIfWatched(name)
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

// touchIfWatched notes a watched variable the line may change.
func (w *walker) touchIfWatched(name string) {
	if w.watched == nil {
		return
	}
	if c := w.watched(name); c != 0 {
		w.touches = true
		w.touched |= c
	}
}
