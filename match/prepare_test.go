package match

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// Prepare must refuse exactly what Compile refuses, with the same words:
// configuration validation shows Prepare's errors.
func TestPrepareReportsWhatCompileReports(t *testing.T) {
	patterns := append([]string{"a*+", "a???", "a|*", "^?", "$+", "Shell|Read", "MCP:.*", "a*?b??", "é+"}, fuzzSeeds...)
	for _, tt := range compileErrors {
		patterns = append(patterns, tt.pattern)
	}
	for _, p := range patterns {
		c, cerr := Compile(p)
		m, perr := Prepare(p)
		if fmt.Sprint(cerr) != fmt.Sprint(perr) {
			t.Errorf("%q: Compile says %v, Prepare says %v", p, cerr, perr)
			continue
		}
		if cerr != nil || c == nil {
			if m != nil {
				t.Errorf("%q: Prepare = %v, want nil as Compile", p, m)
			}
			continue
		}
		for _, in := range []string{"", "a", "Shell", "MCP:x", "TabRead", p} {
			if got, want := m.MatchString(in), c.MatchString(in); got != want {
				t.Errorf("%q on %q: prepared %v, compiled %v", p, in, got, want)
			}
		}
		if m.engine != c.engine || m.expr != c.expr {
			t.Errorf("%q: prepared runs %s %q, compiled %s %q", p, m.engine, m.expr, c.engine, c.expr)
		}
	}
}

// A prepared matcher compiles on its first match, and one pattern is
// compiled once however many hooks name it.
func TestPrepareDefersAndShares(t *testing.T) {
	const p = `prepare-test-(?<=x)y` // lookbehind: the backtracking engine
	m, err := Prepare(p)
	if err != nil {
		t.Fatal(err)
	}
	if m.program != nil {
		t.Fatal("Prepare compiled the matcher before its first use")
	}
	again, err := Prepare(p)
	if err != nil || again != m {
		t.Fatalf("Prepare(%q) twice gave %p and %p (%v), want one shared matcher", p, m, again, err)
	}
	if ok, err := m.Match("prepare-test-xy"); ok || err != nil {
		t.Errorf("Match = %v, %v; want false, nil", ok, err)
	}
	if m.program == nil || m.engine != engineBacktrack {
		t.Fatalf("after a match: program %v", m.program)
	}
	if m.String() != p {
		t.Errorf("String() = %q", m.String())
	}
}

// The same text read by Claude Code's rule is another matcher: a list of
// exact names, not a regular expression.
func TestPrepareNameListIsNotShared(t *testing.T) {
	js, err := Prepare("Edit|Write")
	if err != nil {
		t.Fatal(err)
	}
	claude, err := PrepareNameList("Edit|Write")
	if err != nil {
		t.Fatal(err)
	}
	if !js.MatchString("NotebookEdit") || claude.MatchString("NotebookEdit") {
		t.Errorf("NotebookEdit: JavaScript %v (want true), Claude %v (want false)", js.MatchString("NotebookEdit"), claude.MatchString("NotebookEdit"))
	}
	if again, _ := PrepareNameList("Edit|Write"); again != claude {
		t.Error("PrepareNameList does not share its matchers")
	}
	if m, err := PrepareNameList(" * "); m != nil || err != nil {
		t.Errorf(`PrepareNameList(" * ") = %v, %v; want nil, nil`, m, err)
	}
	re, err := PrepareNameList("Edit.*")
	if err != nil || !re.MatchString("NotebookEdit") {
		t.Errorf(`PrepareNameList("Edit.*") = %v, %v; want a regular expression`, re, err)
	}
	if _, err := PrepareNameList("Edit("); err == nil {
		t.Error(`PrepareNameList("Edit(") accepted a bad regular expression`)
	}
}

// A matcher that cannot be compiled when first used must not read as "no
// match": the caller gets an error, as for a match that ran out of time.
func TestPreparedCompileFailureIsAnError(t *testing.T) {
	m := &Matcher{source: "x", build: func() (*program, error) { return nil, errors.New("engine refused") }}
	for range 2 {
		ok, err := m.Match("x")
		if ok || err == nil || !strings.Contains(err.Error(), "could not be compiled") || !strings.Contains(err.Error(), "engine refused") {
			t.Fatalf("Match = %v, %v; want the compile error", ok, err)
		}
	}
	if m.MatchString("x") {
		t.Error("MatchString of a matcher that cannot compile is true")
	}
}

// Many runs may use a prepared matcher for the first time at once; with
// -race this checks that the first compilation is safe.
func TestPreparedConcurrentFirstUse(t *testing.T) {
	m, err := Prepare("concurrent-first-use|(?i)READ")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if !m.MatchString("read") || m.MatchString("write") {
				t.Error("wrong answer")
			}
		})
	}
	wg.Wait()
}

func TestPreparedCacheIsBounded(t *testing.T) {
	for i := range maxPrepared + 10 {
		if _, err := Prepare(fmt.Sprintf("bounded-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	prepared.mu.Lock()
	n := len(prepared.m)
	prepared.mu.Unlock()
	if n > maxPrepared {
		t.Errorf("%d shared matchers, want at most %d", n, maxPrepared)
	}
}

func TestPlain(t *testing.T) {
	for _, p := range []string{"Shell", "Shell|Read|MCP:.*", "^Read$", "a*?b+c??", "rm -rf /", ".", "|", "a|", "git push"} {
		if !plain(p) {
			t.Errorf("plain(%q) = false", p)
		}
	}
	for _, p := range []string{"*a", "a**", "a???", "a|+", "^*", "$?", "(a)", "[a]", `\d`, "a{2}", "}", "é", "\t"} {
		if plain(p) {
			t.Errorf("plain(%q) = true", p)
		}
	}
}

// FuzzPlain checks the shortcut Prepare takes: a pattern plain accepts
// is one the parser accepts.
func FuzzPlain(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Add("a*?|b+?c??")
	f.Fuzz(func(t *testing.T, pattern string) {
		if plain(pattern) {
			if _, err := parse(pattern); err != nil {
				t.Fatalf("plain(%q) but parse: %v", pattern, err)
			}
		}
	})
}
