package match

import (
	"strings"
	"testing"
)

// A matcher that runs out of time says so: a guard must not read an
// undecided match as "no match".
func TestMatchTimeoutIsAnError(t *testing.T) {
	m, err := Compile(`(?=a)^(a+)+$`) // the lookahead forces the backtracking engine
	if err != nil {
		t.Fatal(err)
	}
	if m.engine != engineBacktrack {
		t.Fatalf("engine %v, want the backtracking one", m.engine)
	}
	slow := strings.Repeat("a", 40) + "!"
	ok, err := m.Match(slow)
	if err == nil || ok {
		t.Fatalf("Match = %v, %v; want an error (exponential backtracking)", ok, err)
	}
	if m.MatchString(slow) {
		t.Error("MatchString of an undecided match is true")
	}
	if ok, err := m.Match("aaa"); !ok || err != nil {
		t.Errorf(`Match("aaa") = %v, %v`, ok, err)
	}
}
