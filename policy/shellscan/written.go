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
// hooks and configuration. A written file that cannot be named matches
// every file run; otherwise the paths (from the line's start) match
// when one holds the other or their base names agree.

// fileUse is a file a line writes or runs: its path from the line's
// start ("" when unknown), and for a run, where it was found.
type fileUse struct {
	path string
	run  *Command // the command that runs it (runs only)
}

// usePath is p as seen from the line's start, for a command in cwd;
// "" when unknown.
func usePath(cwd string, p field) string {
	if p.dynamic || p.s == "" || cwd == "" {
		return ""
	}
	if path.IsAbs(p.s) || strings.HasPrefix(p.s, "~") {
		return path.Clean(p.s)
	}
	return path.Join(cwd, p.s)
}

// noteWrite records an output redirection's target.
func (w *walker) noteWrite(sc *scope, st *state, r *syntax.Redirect) {
	if !redirectWrites(r) || len(w.written) >= maxCommands {
		return
	}
	if r.Word == nil {
		w.written = append(w.written, "")
		return
	}
	for _, f := range w.fields(st, r.Word, sc) {
		w.written = append(w.written, usePath(st.cwd, f))
	}
}

// fileWriters are programs that write the files named by their operands.
var fileWriters = setOf("tee", "cp", "mv", "install", "ln", "rsync", "dd", "curl", "wget",
	"unzip", "tar", "patch")

// noteWriter records the files a writing program may write: every
// operand (over-approximating is safe: it only makes more lines dynamic).
func (w *walker) noteWriter(c *call, name string) {
	if !fileWriters[name] || len(w.written) >= maxCommands {
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
		w.written = append(w.written, usePath(c.cwd, field{s: s, dynamic: a.dynamic}))
	}
}

// noteRun records a file the command c runs as code.
func (w *walker) noteRun(c *call, p field) {
	if len(w.runs) >= maxCommands {
		w.runs[0].path = "" // too many to keep: any written file matches
		return
	}
	w.runs = append(w.runs, fileUse{path: usePath(c.cwd, p), run: &Command{Text: c.text, Via: c.via, Cwd: c.cwd}})
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
	if len(w.written) == 0 || len(w.runs) == 0 {
		return
	}
	for _, r := range w.runs {
		for _, wr := range w.written {
			if sameFile(wr, r.path) {
				w.dynamicAll(r.run.Text, appendVia(r.run.Via, "a file written on the line"), r.run.Cwd)
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
	w.noteRun(c, field{s: gitRun})
	w.runs[len(w.runs)-1].path = gitRun
}

// sameFile reports whether written, a file the line writes, may be run,
// a file it runs: either unknown, one inside the other, or the same base
// name; for a git command, a path through a .git or hooks folder.
func sameFile(written, run string) bool {
	if run == gitRun {
		if written == "" {
			return true
		}
		for _, e := range strings.Split(written, "/") {
			if e == ".git" || e == "hooks" {
				return true
			}
		}
		return false
	}
	a, b := written, run
	if a == "" || b == "" || a == b || path.Base(a) == path.Base(b) {
		return true
	}
	return strings.HasPrefix(b, strings.TrimSuffix(a, "/")+"/") || strings.HasPrefix(a, strings.TrimSuffix(b, "/")+"/")
}
