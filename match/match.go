// Package match compiles hook matchers. Matchers were defined by hosts
// written in JavaScript, so they are ECMAScript regular expressions tested
// unanchored; Go's RE2 engine is used whenever it provably means the same,
// and an ECMAScript-mode backtracking engine with a time limit otherwise.
package match

import (
	"fmt"
	"sync"
)

// Matcher is a compiled matcher. The zero of *Matcher (nil) is not used;
// callers treat a nil matcher as "matches everything". A Matcher is
// immutable once made and safe for concurrent use; Prepare may hand the
// same one to every hook with the same pattern.
type Matcher struct {
	source string
	// build compiles the program the first time it is needed (Prepare);
	// nil when Compile built it at once.
	build func() (*program, error)
	once  sync.Once
	err   error // what build returned, if it failed
	*program
}

// program is what runs a matcher on one of the engines.
type program struct {
	m      func(string) (bool, error)
	engine engine // which engine runs it; tests assert the routing
	expr   string // the pattern as handed to that engine
}

// String returns the matcher as written.
func (m *Matcher) String() string { return m.source }

// MatchString reports whether the matcher matches s (unanchored); a
// match that could not be decided in time counts as no match.
func (m *Matcher) MatchString(s string) bool {
	ok, err := m.Match(s)
	return ok && err == nil
}

// Match reports whether the matcher matches s (unanchored), or an error
// when it could not decide: the backtracking engine ran out of time on s,
// or a prepared matcher could not be compiled on first use. A caller that
// guards something must not read that as "no match".
func (m *Matcher) Match(s string) (bool, error) {
	if m.build != nil {
		m.once.Do(m.compile)
		if m.err != nil {
			return false, m.err
		}
	}
	return m.m(s)
}

// compile runs build once, for Match.
func (m *Matcher) compile() {
	p, err := m.build()
	if err != nil {
		m.err = fmt.Errorf("matcher %q could not be compiled: %w", m.source, err)
		return
	}
	m.program = p
}
