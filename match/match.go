// Package match compiles hook matchers. Matchers were defined by hosts
// written in JavaScript, so they are ECMAScript regular expressions tested
// unanchored; Go's RE2 engine is used whenever it provably means the same,
// and an ECMAScript-mode backtracking engine with a time limit otherwise.
package match

// Matcher is a compiled matcher. The zero of *Matcher (nil) is not used;
// callers treat a nil matcher as "matches everything".
type Matcher struct {
	source string
	m      func(string) (bool, error)
	engine engine // which engine runs it; tests assert the routing
	expr   string // the pattern as handed to that engine
}

// String returns the matcher as written.
func (m *Matcher) String() string { return m.source }

// MatchString reports whether the matcher matches s (unanchored); a
// match that could not be decided in time counts as no match.
func (m *Matcher) MatchString(s string) bool {
	ok, err := m.m(s)
	return ok && err == nil
}

// Match reports whether the matcher matches s (unanchored), or an error
// when it could not decide: the backtracking engine ran out of time on s.
// A caller that guards something must not read that as "no match".
func (m *Matcher) Match(s string) (bool, error) { return m.m(s) }
