package shellscan

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// shellEnv shows the expander only what static analysis knows. Tilde
// expansion keeps "~" and "~user" as written: home directories are not
// this machine's business, and policies treat them as outside any
// workspace.
type shellEnv struct {
	w  *walker
	st *state
}

func (e shellEnv) Get(name string) expand.Variable {
	if positional(name) {
		return e.st.positional(name)
	}
	if v, ok := e.w.lookup(e.st, name); ok {
		if v.unset {
			return expand.Variable{}
		}
		return expand.Variable{Set: true, Kind: expand.String, Str: v.s}
	}
	if name == "HOME" {
		return expand.Variable{Set: true, Kind: expand.String, Str: "~"}
	}
	if user, ok := strings.CutPrefix(name, "HOME "); ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: "~" + user}
	}
	return expand.Variable{}
}

func (e shellEnv) Each(func(string, expand.Variable) bool) {}

// fields expands a command word into the fields the shell would pass,
// when that can be known statically: quotes removed, escapes resolved,
// known variables substituted and split, braces expanded. Otherwise the
// word becomes one dynamic field holding its source text. A glob is
// expanded against the file system at run time, so it is dynamic too.
func (w *walker) fields(st *state, word *syntax.Word, sc *scope) []field {
	ok, glob := w.static(st, word.Parts, false)
	if !ok {
		return []field{{s: sc.text(word), dynamic: true}}
	}
	cfg := &expand.Config{Env: shellEnv{w, st}}
	var out []field
	for s, err := range expand.FieldsSeq(cfg, word) {
		if err != nil {
			return []field{{s: sc.text(word), dynamic: true}}
		}
		out = append(out, field{s: s, dynamic: glob})
		if len(out) > maxFields {
			break
		}
	}
	return out
}

// literal is the static value of an assignment's word (no splitting, no
// globbing), if it has one.
func (w *walker) literal(st *state, word *syntax.Word) (string, bool) {
	if ok, _ := w.static(st, word.Parts, true); !ok {
		return "", false
	}
	s, err := expand.Literal(&expand.Config{Env: shellEnv{w, st}}, word)
	if err != nil {
		return "", false
	}
	return s, true
}

// static reports whether parts can be expanded without running anything
// or reading the environment, and whether the result is a glob pattern.
func (w *walker) static(st *state, parts []syntax.WordPart, quoted bool) (ok, glob bool) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if !quoted && hasGlobMeta(p.Value, true) {
				glob = true
			}
		case *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if ok, _ := w.static(st, p.Parts, true); !ok {
				return false, false
			}
		case *syntax.ParamExp:
			v, ok := w.param(st, p)
			if !ok {
				return false, false
			}
			if !quoted {
				_, assigned := st.vars["IFS"]
				if _, known := w.lookup(st, "IFS"); !known && (assigned || w.tainted["IFS"]) {
					// Split by a separator we do not know. (bash ignores an
					// IFS from the environment: unassigned, it is the
					// default.)
					return false, false
				}
				if hasGlobMeta(v, false) {
					glob = true
				}
			}
		case *syntax.BraceExp:
			for _, e := range p.Elems {
				ok, g := w.static(st, e.Parts, quoted)
				if !ok {
					return false, false
				}
				glob = glob || g
			}
		default: // command, process and arithmetic substitution, extended globs
			return false, false
		}
	}
	return true, glob
}

// param reports whether a parameter expansion is static, with the
// variable's value. Only plain variables assigned earlier on the line
// qualify, with the operators that compute from them alone.
func (w *walker) param(st *state, pe *syntax.ParamExp) (string, bool) {
	if pe.Param != nil && positional(pe.Param.Value) {
		return st.positionalStatic(pe)
	}
	if pe.Param == nil || !syntax.ValidName(pe.Param.Value) ||
		pe.Excl || pe.Width || pe.IsSet || pe.Flags != nil || pe.NestedParam != nil ||
		pe.Index != nil || pe.Slice != nil || pe.Names != 0 || len(pe.Modifiers) > 0 ||
		pe.Split != syntax.OptUnset || pe.GlobSubst != syntax.OptUnset || pe.RcExpand != syntax.OptUnset {
		return "", false
	}
	v, ok := w.lookup(st, pe.Param.Value)
	if !ok {
		return "", false
	}
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.AssignUnset, syntax.AssignUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
			return "", false // side effects
		}
		if pe.Exp.Word != nil {
			if ok, _ := w.static(st, pe.Exp.Word.Parts, true); !ok {
				return "", false
			}
		}
	}
	if pe.Repl != nil {
		for _, wd := range []*syntax.Word{pe.Repl.Orig, pe.Repl.With} {
			if wd != nil {
				if ok, _ := w.static(st, wd.Parts, true); !ok {
					return "", false
				}
			}
		}
	}
	return v.s, true
}

// hasGlobMeta reports whether s holds an unescaped glob: * or ?, or a
// bracket expression with its closing bracket (a lone "[" is the test
// command, not a pattern). raw is true for source text, where a
// backslash escapes the next character.
func hasGlobMeta(s string, raw bool) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if raw {
				i++
			}
		case '*', '?':
			return true
		case '[':
			if strings.IndexByte(s[i+1:], ']') >= 0 {
				return true
			}
		}
	}
	return false
}

// positional reports the names of the positional parameters a function
// call sets: $1 … $9, $@, $*, $#.
func positional(name string) bool {
	return name == "@" || name == "*" || name == "#" || len(name) == 1 && '1' <= name[0] && name[0] <= '9'
}

// positionalStatic is param for a positional parameter: static in a
// call of a function of the line whose arguments are all static, in the
// plain forms ($1, "$@", ${2}, $#).
func (st *state) positionalStatic(pe *syntax.ParamExp) (string, bool) {
	if !st.hasPos || pe.Excl || pe.Length || pe.Width || pe.IsSet || pe.Flags != nil || pe.NestedParam != nil ||
		pe.Index != nil || pe.Slice != nil || pe.Names != 0 || len(pe.Modifiers) > 0 || pe.Exp != nil || pe.Repl != nil {
		return "", false
	}
	for _, f := range st.pos {
		if f.dynamic {
			return "", false
		}
	}
	v := st.positional(pe.Param.Value)
	if v.Kind == expand.Indexed {
		return strings.Join(v.List, " "), true
	}
	return v.Str, true
}

// positional is a positional parameter's value in st.
func (st *state) positional(name string) expand.Variable {
	if !st.hasPos {
		return expand.Variable{}
	}
	switch name {
	case "@", "*":
		return expand.Variable{Set: true, Kind: expand.Indexed, List: st.pos.strings()}
	case "#":
		return expand.Variable{Set: true, Kind: expand.String, Str: strconv.Itoa(len(st.pos))}
	}
	i := int(name[0] - '0')
	if i > len(st.pos) {
		return expand.Variable{}
	}
	return expand.Variable{Set: true, Kind: expand.String, Str: st.pos[i-1].s}
}
