package shellscan

import (
	"maps"
	"path"
	"slices"
	"strings"
)

// value is what static analysis knows about a shell variable.
type value struct {
	s     string
	known bool // the value is s
	unset bool // known to be unset (`unset x`)
}

// state is the shell state at one point of a line: the variables whose
// literal values were assigned earlier on the line, and the directory.
// A variable absent from vars comes from the environment and is unknown.
type state struct {
	vars map[string]value
	cwd  string // relative to the line's start; "" unknown
	// pos are the positional parameters ($1, "$@") of a function called
	// on the line with the arguments pos, when hasPos; otherwise they are
	// unknown.
	pos    argv
	hasPos bool
}

func newState(cwd string) *state { return &state{cwd: cwd} }

func (st *state) clone() *state {
	return &state{vars: maps.Clone(st.vars), cwd: st.cwd, pos: st.pos, hasPos: st.hasPos}
}

func (st *state) set(name string, v value) {
	if st.vars == nil {
		st.vars = map[string]value{}
	}
	st.vars[name] = v
}

// forget makes every variable and the directory unknown: after `source`,
// a dynamic eval, or anything else that may run arbitrary code in this
// shell.
func (st *state) forget() {
	for k := range st.vars {
		st.vars[k] = value{}
	}
	st.set("IFS", value{}) // even if it was never assigned here
	st.cwd = ""
	st.hasPos = false
}

// join merges in the state after a part of the line that may or may not
// have run (a branch, a loop body, the right side of && or ||): whatever
// differs becomes unknown.
func (st *state) join(other *state) {
	for k, v := range other.vars {
		if cur, ok := st.vars[k]; !ok || cur != v {
			st.set(k, value{})
		}
	}
	for k, v := range st.vars {
		if o, ok := other.vars[k]; !ok || o != v {
			st.vars[k] = value{}
		}
	}
	if st.cwd != other.cwd {
		st.cwd = ""
	}
	if !st.hasPos || !other.hasPos || !slices.Equal(st.pos, other.pos) {
		st.hasPos = false
	}
}

// chdir applies `cd dir` with a static dir.
func (st *state) chdir(dir string) {
	switch {
	case st.cwd == "":
	case dir == "-" || dir == "":
		st.cwd = ""
	case strings.HasPrefix(dir, "~"):
		st.cwd = dir
	case path.IsAbs(dir):
		st.cwd = path.Clean(dir)
	default:
		st.cwd = path.Join(st.cwd, dir)
		if st.cwd == "" {
			st.cwd = "."
		}
	}
}
