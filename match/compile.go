package match

import (
	"fmt"
	"regexp"
	"time"

	"github.com/dlclark/regexp2"
)

// engine says which engine runs a Matcher.
type engine uint8

const (
	engineRE2       engine = iota + 1 // Go's regexp: linear time
	engineBacktrack                   // regexp2 in ECMAScript mode, with matchTimeout
	engineNames                       // Claude's exact name list
)

func (e engine) String() string {
	switch e {
	case engineRE2:
		return "re2"
	case engineBacktrack:
		return "regexp2"
	case engineNames:
		return "names"
	}
	return "unknown"
}

// matchTimeout bounds one match on the backtracking engine. A pattern such
// as (a+)+$ can take exponential time; a matcher that runs out of time is
// treated as not matching, so a pathological matcher skips its hook
// rather than stalling the agent.
const matchTimeout = 100 * time.Millisecond

// Compile compiles a hook matcher: a JavaScript regular expression tested
// unanchored, as new RegExp(pattern).test(value) would. "" and "*" match
// everything and return a nil Matcher.
//
// Patterns that mean the same in RE2 (no back references, lookaround or
// inline flags, repeat counts up to 1000) run on Go's regexp in linear
// time; the rest run on regexp2 with a time limit. Either way the pattern
// is first parsed as JavaScript and rewritten, so both engines give
// JavaScript's answer.
//
// Compile does all the work at once; Prepare checks the pattern now and
// leaves the engine's compilation to the first match.
func Compile(pattern string) (*Matcher, error) {
	if pattern == "" || pattern == "*" {
		return nil, nil
	}
	tree, err := parse(pattern)
	if err != nil {
		return nil, err
	}
	p, err := build(pattern, tree)
	if err != nil {
		return nil, err
	}
	return &Matcher{source: pattern, program: p}, nil
}

// build compiles a parsed pattern for the engine that can run it.
func build(pattern string, tree *node) (*program, error) {
	if expr, ok := toRE2(tree); ok {
		// Go also limits the size of the compiled program (for example
		// (a{1000}){1000}); regexp2 has no such limit, so fall through.
		if re, err := regexp.Compile(expr); err == nil {
			return &program{m: func(s string) (bool, error) { return re.MatchString(s), nil }, engine: engineRE2, expr: expr}, nil
		}
	}
	return buildBacktrack(pattern, tree)
}

// compileBacktrack compiles a parsed pattern for regexp2.
func compileBacktrack(pattern string, tree *node) (*Matcher, error) {
	p, err := buildBacktrack(pattern, tree)
	if err != nil {
		return nil, err
	}
	return &Matcher{source: pattern, program: p}, nil
}

func buildBacktrack(pattern string, tree *node) (*program, error) {
	expr := toBacktrack(tree)
	re, err := regexp2.Compile(expr, regexp2.ECMAScript)
	if err != nil {
		return nil, engineError(pattern, err)
	}
	re.MatchTimeout = matchTimeout
	m := func(s string) (bool, error) {
		ok, err := re.MatchString(s)
		if err != nil { // a timeout
			return false, fmt.Errorf("matcher %q could not decide within %v on a value of %d bytes", pattern, matchTimeout, len(s))
		}
		return ok, nil
	}
	return &program{m: m, engine: engineBacktrack, expr: expr}, nil
}
