package match

import (
	"errors"
	"testing"
	"time"

	"github.com/dlclark/regexp2"
)

// fuzzSeeds start both fuzz targets from every construct the parser knows.
var fuzzSeeds = []string{
	"Shell|Read|Write", "curl|wget|nc ", "MCP:.*", "^(Tab)?Read$", `rm\s+-rf`, ".", "[^]", "[]",
	`\s\S\d\D\w\W\b\B`, "[[:alpha:]]", `\A\z\Q\E\C\pL\x{41}\x41\u0041\uD83D\uDE00`, `\c\cJ[\c1]\0\12\8`,
	"(?i)a", "(?i-s:a.)", "(?m)^a$", "(?=a)(?!b)(?<=c)(?<!d)", `(a)\1`, `(?<n>a)\k<n>`, `\k`,
	"a{", "a{2}", "a{,2}", "a{2,1}", "{2}", "x{1001}", "a*?b+?c??", "(a+)+$", "[a-z\\d-]", "[z-a]",
	"a(b", "a)", "[a", `\`, "é日本😀\u2028",
}

func FuzzCompile(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		start := time.Now()
		m, err := Compile(pattern)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("Compile(%q) took %v", pattern, d)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Msg == "" || se.Offset < 0 || se.Offset > len(pattern) {
				t.Fatalf("Compile(%q): error %#v is not a well-formed *SyntaxError", pattern, err)
			}
			if _, perr := parse(pattern); perr == nil {
				// The parser accepted it, so an engine refused what
				// we wrote for it: an emitter bug.
				t.Fatalf("Compile(%q): parsed, but %v", pattern, err)
			}
			return
		}
		if m == nil {
			if pattern != "" && pattern != "*" {
				t.Fatalf("Compile(%q) = nil, want a matcher", pattern)
			}
			return
		}
		if m.String() != pattern {
			t.Fatalf("String() = %q, want %q", m.String(), pattern)
		}
		start = time.Now()
		m.MatchString(pattern)
		if d := time.Since(start); d > 20*matchTimeout {
			t.Fatalf("Compile(%q).MatchString took %v", pattern, d)
		}
	})
}

// FuzzMatch checks, for every pattern that runs on RE2, that RE2 and the
// backtracking engine agree: the two are written from the same tree by
// different emitters, so a difference is a bug in one of them.
func FuzzMatch(f *testing.F) {
	inputs := []string{"", "a", "Shell", "TabRead", "aé\u2028b", "\r\n", "\u00a0\u3000", "😀", "\xff", "a{2}"}
	for i, s := range fuzzSeeds {
		f.Add(s, inputs[i%len(inputs)])
	}
	f.Fuzz(func(t *testing.T, pattern, input string) {
		start := time.Now()
		m, err := Compile(pattern)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("Compile(%q) took %v", pattern, d)
		}
		if err != nil || m == nil {
			return
		}
		start = time.Now()
		got := m.MatchString(input)
		if d := time.Since(start); d > 20*matchTimeout {
			t.Fatalf("Compile(%q).MatchString(%q) took %v", pattern, input, d)
		}
		if m.engine != engineRE2 {
			return
		}
		tree, err := parse(pattern)
		if err != nil {
			t.Fatalf("parse(%q): %v, but Compile succeeded", pattern, err)
		}
		expr := toBacktrack(tree)
		re, err := regexp2.Compile(expr, regexp2.ECMAScript)
		if err != nil {
			t.Fatalf("regexp2 rejects %q written as %q: %v", pattern, expr, err)
		}
		re.MatchTimeout = matchTimeout
		want, err := re.MatchString(input)
		if err != nil {
			return // the backtracking engine ran out of time; no answer to compare
		}
		if got != want {
			t.Fatalf("%q on %q: RE2 (%s) says %v, regexp2 (%s) says %v", pattern, input, m.expr, got, expr, want)
		}
	})
}
