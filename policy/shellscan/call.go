package shellscan

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// argv is a command's words after expansion, each remembering whether its
// value is known.
type argv []field

type field struct {
	s       string
	dynamic bool
}

func (a argv) strings() []string {
	out := make([]string, len(a))
	for i, f := range a {
		out[i] = f.s
	}
	return out
}

// call is one simple command about to be interpreted: its expanded words,
// the variables set for it, and where it was found.
type call struct {
	sc     *scope
	st     *state
	args   argv
	env    map[string]string
	via    []string
	cwd    string
	text   string
	redirs []*syntax.Redirect
	// reads are the files its input redirections open; a wrapper's reach
	// the program it runs, whose standard input they are.
	reads []string
	// progBase is the program's base name when the program word is
	// dynamic only in its directory ("$HOME/bin/git").
	progBase string
	// spec is set for a command an unknown program may run (speculate):
	// only what it plainly shows counts.
	spec bool
}

// callStmt interprets a simple command in the current shell.
func (w *walker) callStmt(sc *scope, st *state, ce *syntax.CallExpr, redirs []*syntax.Redirect) {
	w.visited[ce] = true
	for _, a := range ce.Assigns {
		w.substs(sc, st, a)
	}
	for _, a := range ce.Args {
		w.substs(sc, st, a)
	}
	if len(ce.Args) == 0 {
		for _, a := range ce.Assigns {
			w.assign(st, a)
		}
		return
	}
	w.interpret(sc, st, ce, redirs)
}

// call reports a simple command found by the safety sweep.
func (w *walker) call(sc *scope, st *state, ce *syntax.CallExpr) {
	w.visited[ce] = true
	w.interpret(sc, st, ce, nil)
}

func (w *walker) interpret(sc *scope, st *state, ce *syntax.CallExpr, redirs []*syntax.Redirect) {
	if w.cwdTainted {
		st.cwd = "" // this may be a call of a function that changes directory
	}
	c := &call{sc: sc, st: st, via: sc.via, cwd: st.cwd, text: sc.text(ce), redirs: redirs}
	c.reads = w.inputFiles(sc, st, redirs)
	for _, a := range ce.Assigns {
		if a.Name == nil {
			continue
		}
		if c.env == nil {
			c.env = map[string]string{}
		}
		v, ok := w.assignValue(st, a)
		if !ok {
			_, v, _ = strings.Cut(sc.text(a), "=")
		}
		c.env[a.Name.Value] = v
	}
	for _, word := range ce.Args {
		fs := w.fields(st, word, sc)
		if len(c.args) == 0 && len(fs) == 1 && fs[0].dynamic {
			// The program's word: maybe dynamic only in its directory.
			c.progBase = staticBase(word)
		}
		c.args = append(c.args, fs...)
		if len(c.args) > maxFields {
			c.args = append(c.args[:maxFields], field{s: "…", dynamic: true})
			break
		}
	}
	if len(c.args) == 0 {
		return // `$empty` expands to nothing: no command runs
	}
	w.run(c)
}

// staticBase returns the base name of a program word whose directory is
// dynamic but whose last path element is literal: "$HOME/bin/git" is
// git wherever HOME points.
func staticBase(word *syntax.Word) string {
	parts := word.Parts
	if len(parts) == 0 {
		return ""
	}
	last := parts[len(parts)-1]
	if dq, ok := last.(*syntax.DblQuoted); ok && len(dq.Parts) > 0 {
		last = dq.Parts[len(dq.Parts)-1]
	}
	lit, ok := last.(*syntax.Lit)
	if !ok {
		return ""
	}
	i := strings.LastIndexByte(lit.Value, '/')
	if i < 0 || len(parts) == 1 && i == 0 {
		return ""
	}
	base := lit.Value[i+1:]
	if base == "" || strings.ContainsAny(base, "\\*?[{$`'\"") {
		return ""
	}
	return base
}

// run reports c and then looks inside it: programs that run other
// programs, shells given a command string, and the builtins that change
// the shell's state.
func (w *walker) run(c *call) {
	prog := c.args[0]
	if !prog.dynamic && prog.s == "" {
		return // `''`: "command not found", nothing runs
	}
	cmd := Command{
		Path:  prog.s,
		Args:  c.args[1:].strings(),
		Env:   c.env,
		Via:   c.via,
		Cwd:   c.cwd,
		Text:  c.text,
		Reads: c.reads,
	}
	for i, f := range c.args[1:] {
		if f.dynamic {
			cmd.DynamicArgs = append(cmd.DynamicArgs, i)
		}
	}
	switch {
	case !prog.dynamic:
		cmd.Name = baseName(prog.s)
	case c.progBase != "":
		cmd.Name = c.progBase
	default:
		cmd.Dynamic = true
	}
	w.emit(cmd)
	if cmd.Name == "" {
		return
	}
	if defs, ok := w.funcs[prog.s]; ok && !prog.dynamic {
		w.callFunc(c, defs)
	}
	if strings.ContainsRune(prog.s, '/') && !prog.dynamic || c.progBase != "" {
		w.noteRun(c, prog) // ./build.sh
	}
	w.noteWriter(c, cmd.Name)
	w.inside(c, cmd.Name)
}

// baseName is the last element of a program path, with either separator
// (a Windows path may reach a POSIX-shell analysis).
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	if strings.HasSuffix(p, "/") {
		return path.Base(p)
	}
	return p
}

// sub builds the call for a program another one runs with args.
func (c *call) sub(args argv, via string) *call {
	return &call{sc: c.sc, st: c.st, args: args, via: appendVia(c.via, via), cwd: c.cwd, text: c.text, reads: c.reads, spec: c.spec}
}

// assign applies `name=value` to the shell state.
func (w *walker) assign(st *state, a *syntax.Assign) {
	if a.Name == nil {
		return
	}
	name := a.Name.Value
	if a.Index != nil || a.Array != nil {
		st.set(name, value{})
		return
	}
	v, ok := w.assignValue(st, a)
	if !ok {
		st.set(name, value{})
		return
	}
	st.set(name, value{s: v, known: true})
}

// assignValue is the static value an assignment gives, if it has one.
func (w *walker) assignValue(st *state, a *syntax.Assign) (string, bool) {
	if a.Index != nil || a.Array != nil {
		return "", false
	}
	s := ""
	if a.Value != nil {
		v, ok := w.literal(st, a.Value)
		if !ok {
			return "", false
		}
		s = v
	}
	if a.Append {
		old, ok := w.lookup(st, a.Name.Value)
		if !ok {
			return "", false
		}
		s = old.s + s
	}
	return s, true
}

// lookup returns a variable's known value.
func (w *walker) lookup(st *state, name string) (value, bool) {
	if w.tainted[name] {
		return value{}, false
	}
	v, ok := st.vars[name]
	if !ok || !v.known && !v.unset {
		return value{}, false
	}
	return v, true
}
