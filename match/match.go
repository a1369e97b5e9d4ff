// Package match compiles hook matchers. Matchers were defined by hosts
// written in JavaScript, so they are ECMAScript regular expressions tested
// unanchored; Go's RE2 engine is used whenever it provably means the same,
// and an ECMAScript-mode backtracking engine with a time limit otherwise.
package match

// Matcher is a compiled matcher. The zero of *Matcher (nil) is not used;
// callers treat a nil matcher as "matches everything".
type Matcher struct {
	source string
	m      func(string) bool
	engine engine // which engine runs it; tests assert the routing
	expr   string // the pattern as handed to that engine
}

// String returns the matcher as written.
func (m *Matcher) String() string { return m.source }

// MatchString reports whether the matcher matches s (unanchored).
func (m *Matcher) MatchString(s string) bool { return m.m(s) }
