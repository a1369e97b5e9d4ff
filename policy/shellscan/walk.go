package shellscan

import (
	"reflect"

	"mvdan.cc/sh/v3/syntax"
)

// stmts walks a list run one after another in the current shell.
func (w *walker) stmts(sc *scope, st *state, list []*syntax.Stmt) {
	for _, s := range list {
		w.stmt(sc, st, s)
	}
}

// maybe walks a part that may or may not run: afterwards, whatever it
// may have changed is unknown.
func (w *walker) maybe(sc *scope, st *state, list ...*syntax.Stmt) {
	child := st.clone()
	w.stmts(sc, child, list)
	st.join(child)
}

// subshell walks a part that runs in a child process: it sees the state
// but cannot change it.
func (w *walker) subshell(sc *scope, st *state, list []*syntax.Stmt) {
	w.stmts(sc, st.clone(), list)
}

func (w *walker) stmt(sc *scope, st *state, s *syntax.Stmt) {
	if s == nil {
		return
	}
	if s.Background || s.Coprocess || s.Disown {
		// A background job runs in a subshell.
		w.command(sc, st.clone(), s)
	} else {
		w.command(sc, st, s)
	}
	if _, simple := s.Cmd.(*syntax.CallExpr); !simple {
		w.compoundReads(sc, st, s)
	}
	for _, r := range s.Redirs {
		w.substs(sc, st, r.Word)
		w.substs(sc, st, r.Hdoc)
		w.noteWrite(sc, st, r)
	}
}

// compoundReads reports the files a statement that is not a simple
// command reads through its input redirections (while …; done < f, and
// bash's $(< f), a redirection with no command at all) as an entry with
// no name, its files in Reads: what reads them is the shell itself.
func (w *walker) compoundReads(sc *scope, st *state, s *syntax.Stmt) {
	if reads := w.inputFiles(sc, st, s.Redirs); len(reads) > 0 {
		w.emit(Command{Reads: reads, Via: sc.via, Cwd: st.cwd, Text: sc.text(s)})
	}
}

// inputFiles are the files redirections open for reading (< f, <> f),
// expanded as arguments are.
func (w *walker) inputFiles(sc *scope, st *state, redirs []*syntax.Redirect) []string {
	var files []string
	for _, r := range redirs {
		if (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut) && r.Word != nil {
			for _, f := range w.fields(st, r.Word, sc) {
				files = append(files, f.s)
			}
		}
	}
	return files
}

func (w *walker) command(sc *scope, st *state, s *syntax.Stmt) {
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		w.callStmt(sc, st, c, s.Redirs)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt:
			w.stmt(sc, st, c.X)
			w.maybe(sc, st, c.Y)
		default: // pipelines: every part in a subshell (zsh runs the last in this shell)
			w.maybe(sc, st, c.X)
			w.maybe(sc, st, c.Y)
		}
	case *syntax.Subshell:
		w.subshell(sc, st, c.Stmts)
	case *syntax.Block:
		w.stmts(sc, st, c.Stmts)
	case *syntax.IfClause:
		w.ifClause(sc, st, c)
	case *syntax.WhileClause:
		w.loop(sc, st, c, func(st *state) {
			w.stmts(sc, st, c.Cond)
			w.stmts(sc, st, c.Do)
		})
	case *syntax.ForClause:
		w.loop(sc, st, c, func(st *state) {
			switch l := c.Loop.(type) {
			case *syntax.WordIter:
				for _, it := range l.Items {
					w.substs(sc, st, it)
				}
				if l.Name != nil {
					st.set(l.Name.Value, value{})
				}
			case *syntax.CStyleLoop:
				w.substs(sc, st, l.Init)
				w.substs(sc, st, l.Cond)
				w.substs(sc, st, l.Post)
			}
			w.stmts(sc, st, c.Do)
		})
	case *syntax.CaseClause:
		w.substs(sc, st, c.Word)
		after := st.clone()
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				w.substs(sc, st, p)
			}
			child := st.clone()
			w.stmts(sc, child, it.Stmts)
			after.join(child)
		}
		*st = *after
	case *syntax.FuncDecl:
		w.funcDecl(sc, c)
	case *syntax.ArithmCmd:
		w.substs(sc, st, c.X)
	case *syntax.TestClause:
		w.substs(sc, st, c.X)
	case *syntax.LetClause:
		for _, e := range c.Exprs {
			w.substs(sc, st, e)
		}
	case *syntax.DeclClause:
		w.declClause(sc, st, c)
	case *syntax.TimeClause:
		w.stmt(sc, st, c.Stmt)
	case *syntax.CoprocClause:
		w.substs(sc, st, c.Name)
		w.stmt(sc, st.clone(), c.Stmt)
	case *syntax.TestDecl:
		w.substs(sc, st, c.Description)
		w.stmt(sc, newState(""), c.Body)
	}
}

func (w *walker) ifClause(sc *scope, st *state, c *syntax.IfClause) {
	// The first condition always runs; everything after it may not.
	w.stmts(sc, st, c.Cond)
	after := st.clone()
	then := st.clone()
	w.stmts(sc, then, c.Then)
	after.join(then)
	if c.Else != nil {
		els := st.clone()
		if len(c.Else.Cond) == 0 { // plain else
			w.stmts(sc, els, c.Else.Then)
		} else {
			w.ifClause(sc, els, c.Else)
		}
		after.join(els)
	}
	*st = *after
}

// loop walks a loop body once, in a state where everything the body may
// change is already unknown: a later iteration sees the changes of an
// earlier one.
func (w *walker) loop(sc *scope, st *state, n syntax.Node, body func(*state)) {
	names, cd := assignedIn(n)
	child := st.clone()
	for name := range names {
		if _, ok := child.vars[name]; ok {
			child.set(name, value{})
		}
	}
	if cd {
		child.cwd = ""
	}
	body(child)
	st.join(child)
}

// funcDecl walks a function body with nothing known (it runs whenever it
// is called), and taints what it assigns: a call may change those
// variables at any point.
func (w *walker) funcDecl(sc *scope, c *syntax.FuncDecl) {
	names, cd := assignedIn(c.Body)
	if w.tainted == nil {
		w.tainted = map[string]bool{}
	}
	for n := range names {
		w.tainted[n] = true
	}
	if cd {
		w.cwdTainted = true
	}
	if c.Name != nil && usesPositional(c.Body) {
		if w.funcs == nil {
			w.funcs = map[string][]funcDef{}
		}
		w.funcs[c.Name.Value] = append(w.funcs[c.Name.Value], funcDef{sc: sc, body: c.Body})
	}
	w.stmt(sc, newState(""), c.Body)
}

// usesPositional reports a body that reads its arguments ($1, "$@",
// $#, shift): only for those does a call's walk add what the first did
// not know.
func usesPositional(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil && positional(pe.Param.Value) {
			found = true
		}
		return !found
	})
	return found
}

// funcDef is a function defined on the line: its body and where it
// sits.
type funcDef struct {
	sc   *scope
	body *syntax.Stmt
}

// callFunc walks the bodies of the function c calls that read their
// arguments (every such definition of its name on the line: which one is
// in force when it runs is not followed) with its arguments as the positional parameters, in the
// caller's directory. The body was walked already, knowing nothing; this
// walk sees what the arguments make of it: `f() { git "$@"; }; f push`.
func (w *walker) callFunc(c *call, defs []funcDef) {
	for _, a := range c.args[1:] {
		if a.dynamic {
			return // the walk of the definition, knowing nothing, covers it
		}
	}
	if w.calls >= maxNesting || w.callWalks >= maxCallWalks {
		w.dynamicAll(c.text, appendVia(c.via, c.args[0].s+"()"), c.cwd)
		return
	}
	w.calls++
	w.callWalks++
	defer func() { w.calls-- }()
	for _, d := range defs {
		st := c.st.clone()
		st.pos, st.hasPos = c.args[1:], true
		st.cwd = c.cwd
		sc := &scope{src: d.sc.src, via: appendVia(c.via, c.args[0].s+"()"), depth: d.sc.depth}
		w.stmt(sc, st, d.body)
	}
}

// assignedIn lists the names n may assign (assignments, and any word
// that could name a variable for read, printf -v, for, …) and whether it
// may change directory. Over-approximating is safe: it only makes more
// things unknown.
func assignedIn(n syntax.Node) (map[string]bool, bool) {
	names := map[string]bool{}
	cd := false
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil {
				names[n.Name.Value] = true
			}
		case *syntax.WordIter:
			if n.Name != nil {
				names[n.Name.Value] = true
			}
		case *syntax.CallExpr:
			for i, a := range n.Args {
				lit := a.Lit()
				if i == 0 && (lit == "cd" || lit == "pushd" || lit == "popd" || lit == "source" || lit == "." || lit == "eval") {
					cd = true
				}
				if syntax.ValidName(lit) {
					names[lit] = true
				}
			}
		}
		return true
	})
	return names, cd
}

// declClause handles declare/local/export/readonly/typeset: literal
// assignments become known unless a flag changes their meaning.
func (w *walker) declClause(sc *scope, st *state, c *syntax.DeclClause) {
	plain := true
	for _, a := range c.Args {
		w.substs(sc, st, a)
		if a.Naked && a.Name == nil && a.Value != nil {
			switch a.Value.Lit() {
			case "-x", "+x", "-r", "-g", "--":
			default:
				plain = false // -i, -l, -u, -n, -a, -A, or something dynamic
			}
		}
	}
	if c.Variant.Value == "nameref" {
		plain = false
	}
	var args []string
	for _, a := range c.Args {
		switch {
		case a.Name == nil:
			if a.Value != nil {
				args = append(args, sc.text(a.Value))
			}
			continue
		case a.Naked:
			// `export x`: the value does not change.
		case !plain || a.Index != nil || a.Array != nil:
			st.set(a.Name.Value, value{})
		default:
			w.assign(st, a)
		}
		args = append(args, sc.text(a))
	}
	w.emit(Command{Name: c.Variant.Value, Path: c.Variant.Value, Args: args, Via: sc.via, Cwd: st.cwd, Text: sc.text(c)})
}

// substs walks the command and process substitutions inside a word or
// expression: they run in subshells, in source order.
func (w *walker) substs(sc *scope, st *state, n syntax.Node) {
	if isNil(n) {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.subshell(&scope{src: sc.src, via: appendVia(sc.via, "$()"), depth: sc.depth}, st, n.Stmts)
			return false
		case *syntax.ProcSubst:
			w.subshell(&scope{src: sc.src, via: appendVia(sc.via, "<()"), depth: sc.depth}, st, n.Stmts)
			return false
		}
		return true
	})
}

// isNil reports whether n is absent: optional parts of the syntax tree
// are typed nil pointers.
func isNil(n syntax.Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func appendVia(via []string, v string) []string {
	out := make([]string, len(via), len(via)+1)
	copy(out, via)
	return append(out, v)
}
