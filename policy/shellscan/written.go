package shellscan

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A line can write a file and then run it: `echo 'git push …' > x.sh; sh
// x.sh`, a Makefile written and made, a script sourced, a git hook
// written before a commit. What runs is then the line's own text, which
// the analysis does not read as code: such a line is dynamic. The files
// written are the targets of output redirections and of the programs
// that write their operands (tee, cp, mv, …); the files run are a
// shell's or an interpreter's script, a sourced file, a program given as
// a path, make's makefile, and, for any git command, the repository's
// hooks and configuration. A file written into a .git or hooks folder is
// dynamic whatever the line runs: git runs it later. A written file that
// cannot be named matches every file run; otherwise the paths (from the line's start) match
// when one holds the other or their base names agree.

// fileRun is a file a line runs: its path from the line's start (""
// when unknown, gitRun for a git command), and the command that runs it.
type fileRun struct {
	path      usedPath
	text, cwd string
	via       []string
}

// mayWrite reports a line that may write a file: it holds a redirection
// or names a program that writes its operands. Only such a line can run
// a file it wrote.
func mayWrite(line string) bool {
	if strings.IndexByte(line, '>') >= 0 {
		return true
	}
	for _, name := range writerNames {
		if strings.Contains(line, name) {
			return true
		}
	}
	return false
}

// usedPath is a file as a command names it, p in the directory cwd
// (from the line's start); "" for either when unknown. It is joined
// only when a comparison needs it (few do).
type usedPath struct{ cwd, p string }

// usePath is p as seen by a command in cwd.
func usePath(cwd string, p field) usedPath {
	if p.dynamic || p.s == "" || cwd == "" {
		return usedPath{}
	}
	return usedPath{cwd: cwd, p: p.s}
}

func (u usedPath) known() bool { return u.p != "" }

// full is the path from the line's start.
func (u usedPath) full() string {
	if path.IsAbs(u.p) || strings.HasPrefix(u.p, "~") {
		return path.Clean(u.p)
	}
	return path.Join(u.cwd, u.p)
}

// noteWrite records an output redirection's target.
func (w *walker) noteWrite(sc *scope, st *state, r *syntax.Redirect) {
	if !w.noteFiles || !redirectWrites(r) {
		return
	}
	x := w.extra()
	if len(x.written) >= maxCommands {
		return
	}
	if r.Word == nil {
		x.written = append(x.written, usedPath{})
		return
	}
	for _, f := range w.fields(st, r.Word, sc) {
		x.written = append(x.written, usePath(st.cwd, f))
	}
}

// writerNames are programs that write the files named by their operands
// (fileWriters, as a list for mayWrite's scan).
var writerNames = []string{"tee", "cp", "mv", "install", "ln", "rsync", "dd", "curl", "wget",
	"unzip", "tar", "patch"}

var fileWriters = setOf(writerNames...)

// noteWriter records the files a writing program may write: every
// operand (over-approximating is safe: it only makes more lines dynamic).
func (w *walker) noteWriter(c *call, name string) {
	if !w.noteFiles || !fileWriters[name] {
		return
	}
	x := w.extra()
	if len(x.written) >= maxCommands {
		return
	}
	for _, a := range c.args[1:] {
		s := a.s
		if strings.HasPrefix(s, "-") && !a.dynamic {
			if _, v, ok := strings.Cut(s, "="); ok {
				s = v // --output=F, of=F
			} else {
				continue
			}
		} else if name == "dd" {
			_, s, _ = strings.Cut(s, "=")
		}
		x.written = append(x.written, usePath(c.cwd, field{s: s, dynamic: a.dynamic}))
	}
}

// noteRun records a file the command c runs as code.
func (w *walker) noteRun(c *call, p field) {
	if w.noteFiles {
		w.addRun(fileRun{path: usePath(c.cwd, p), text: c.text, cwd: c.cwd, via: c.via})
	}
}

// addRun keeps a run of a line that may write files (noteFiles).
func (w *walker) addRun(r fileRun) {
	x := w.extra()
	if len(x.runs) >= maxCommands {
		x.runs[0].path = usedPath{} // too many to keep: unknown, it matches any written file
		return
	}
	x.runs = append(x.runs, r)
}

// makefiles are the files make reads without -f.
var makefiles = []string{"GNUmakefile", "makefile", "Makefile"}

// noteMake records the makefiles of a make run.
func (w *walker) noteMake(c *call, args argv) {
	opts, _ := optSpec{short: "CfIjlOoW", long: []string{"directory", "file", "makefile", "include-dir", "jobs", "load-average", "output-sync", "old-file", "what-if", "assume-old", "assume-new", "new-file", "eval"}}.scan(args)
	dir := field{s: "."}
	if d, ok := optValue(opts, "C", "directory"); ok {
		dir = d
	}
	sub := *c
	sub.cwd = chdirFrom(c.cwd, dir)
	given := false
	for _, o := range opts {
		switch o.name {
		case "f", "file", "makefile":
			given = true
			w.noteRun(&sub, o.val)
		case "eval":
			w.dynamicAll(c.text, appendVia(c.via, "make --eval"), c.cwd)
		}
	}
	if !given {
		for _, m := range makefiles {
			w.noteRun(&sub, field{s: m})
		}
	}
}

// writtenRuns reports the line as dynamic when it runs a file it wrote.
func (w *walker) writtenRuns() {
	if w.x == nil || len(w.x.written) == 0 {
		return
	}
	// A file written into a repository's .git or a hooks folder is
	// code git may run later (a hook, core.hooksPath or an alias in
	// config), by this line or by a later command of the session.
	for _, wr := range w.x.written {
		if wr.known() && (gitPath(wr.cwd) || gitPath(wr.p)) {
			w.dynamicAll(wr.p, []string{"a file written into .git"}, wr.cwd)
			return
		}
	}
	for _, r := range w.x.runs {
		for _, wr := range w.x.written {
			if sameFile(wr, r.path) {
				w.dynamicAll(r.text, appendVia(r.via, "a file written on the line"), r.cwd)
				return
			}
		}
	}
}

// gitRun stands for the files any git command may run: the hooks and
// configuration of its repository.
const gitRun = "\x00git"

// noteGit records that a git command runs its repository's hooks.
func (w *walker) noteGit(c *call) {
	if w.noteFiles {
		w.addRun(fileRun{path: usedPath{cwd: ".", p: gitRun}, text: c.text, cwd: c.cwd, via: c.via})
	}
}

// sameFile reports whether written, a file the line writes, may be run,
// a file it runs: either unknown, one inside the other, or the same base
// name; for a git command, a path through a .git or hooks folder.
func sameFile(written, run usedPath) bool {
	if !written.known() {
		return true
	}
	if run.p == gitRun {
		return gitPath(written.cwd) || gitPath(written.p)
	}
	if !run.known() || path.Base(written.p) == path.Base(run.p) {
		return true
	}
	a, b := written.full(), run.full()
	return a == b || strings.HasPrefix(b, strings.TrimSuffix(a, "/")+"/") || strings.HasPrefix(a, strings.TrimSuffix(b, "/")+"/")
}

// gitPath reports a path through a .git or hooks folder.
func gitPath(p string) bool {
	for rest := p; rest != ""; {
		var e string
		e, rest, _ = strings.Cut(rest, "/")
		if e == ".git" || e == "hooks" {
			return true
		}
	}
	return false
}
