package gitpush

import (
	"testing"

	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// TestLineFacts: what a line does besides running its commands, which
// decides whether git's configured aliases still hold.
func TestLineFacts(t *testing.T) {
	cases := []struct {
		line           string
		writes, gitEnv bool
	}{
		{"git status", false, false},
		{"git log > log.txt", true, false},
		{"git log >> .git/config", true, false},
		{"{ echo a; echo b; } > f", true, false},
		{"exec 3> f", true, false},
		{"git log &> f", true, false},
		{`git log > "$F"`, true, false},
		{"git log >/dev/null 2>&1", false, false},
		{"git log 2>/dev/null >&2", false, false},
		{"cat < f", false, false},
		{"cat <<EOF\nx\nEOF", false, false},
		{"bash -c 'echo x > f'", true, false},
		{"HOME=/tmp git st", false, true},
		{"export GIT_CONFIG_GLOBAL=/tmp/x", false, true},
		{"export GIT_DIR", false, true},
		{"unset HOME; git st", false, true},
		{"read PATH", false, true},
		{"for HOME in a b; do :; done", false, true},
		{"env -u HOME git st", false, true},
		{"env XDG_CONFIG_HOME=/x git st", false, true},
		{"source ./env.sh; git st", false, true},
		{". ./env.sh; git st", false, true},
		{"echo source", false, false},
		{"x=1; git st", false, false},
		{"eval 'HOME=/x'", false, true},
	}
	for _, c := range cases {
		li := shellscan.Analyze(c.line, gitWatch)
		if li.Writes != c.writes || li.Touches != c.gitEnv {
			t.Errorf("%q: writes %v gitEnv %v, want %v %v", c.line, li.Writes, li.Touches, c.writes, c.gitEnv)
		}
	}
}
