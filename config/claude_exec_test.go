package config

import "testing"

// An exec-form hook runs its program: a first word that sh would read as
// an assignment or a keyword is quoted, so it stays the program's name.
func TestClaudeExecFormFirstWordIsTheProgram(t *testing.T) {
	for cmd, want := range map[string]string{
		"fmt":          "fmt --check 'a b'",
		"FOO=1":        "'FOO=1' --check 'a b'",
		"time":         "'time' --check 'a b'",
		"/opt/my tool": "'/opt/my tool' --check 'a b'",
	} {
		src := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + cmd + `", "args": ["--check", "a b"]}]}]}}`
		f := ParseClaudeFile("/w/.claude/settings.json", []byte(src), ClaudeProject, "/w", "/w")
		if len(f.Hooks) != 1 {
			t.Fatalf("%s: %d hooks, problems %v", cmd, len(f.Hooks), f.Problems)
		}
		if got := f.Hooks[0].Command; got != want {
			t.Errorf("exec form %q: command %s, want %s", cmd, got, want)
		}
	}
}
