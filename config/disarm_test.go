package config

import (
	"strings"
	"testing"
)

// TestMatcherNeverMatches: a matcher that cannot match the one value its
// step is tested against is an error that disarms the hook, which still
// loads; one that can, and matchers of steps whose value varies, are not.
func TestMatcherNeverMatches(t *testing.T) {
	for _, c := range []struct {
		step, matcher string
		never         bool
	}{
		{"beforeReadFile", `\\.env$`, true},
		{"beforeReadFile", "TabRead", true},
		{"beforeReadFile", "Read|TabRead", false},
		{"beforeTabFileRead", "^Read$", true},
		{"afterFileEdit", `\\.go$`, true},
		{"afterFileEdit", "Write", false},
		{"beforeSubmitPrompt", "secret", true},
		{"stop", "completed", true},
		{"afterAgentResponse", "password", true},
		{"afterAgentThought", "plan", true},
		{"beforeShellExecution", `\\.env$`, false},
		{"preToolUse", "^Nothing$", false},
	} {
		f := ParseFile("h.json", []byte(`{"version":1,"hooks":{"`+c.step+`":[{"command":"./x","matcher":"`+c.matcher+`"}]}}`), User, "/d", "/d")
		bad := Disarming(f.Problems)
		if c.never != (len(bad) == 1) || len(f.Hooks) != 1 {
			t.Errorf("%s %s: problems %v, hooks %d; want disarming %v and the hook loaded", c.step, c.matcher, f.Problems, len(f.Hooks), c.never)
			continue
		}
		if c.never && (bad[0].Severity != Error || !strings.Contains(bad[0].Message, "never matches")) {
			t.Errorf("%s %s: %v", c.step, c.matcher, bad[0])
		}
	}
}

// TestDisarmingMistakes: each mistake that disarms a guard is an error
// marked Disarms; a step or key far from any known one stays a warning,
// so files written for a newer Cursor load.
func TestDisarmingMistakes(t *testing.T) {
	for _, c := range []struct {
		name, file, want string
		disarms          bool
	}{
		{"step two edits away", `{"version":1,"hooks":{"beforeShellExecuton":[{"command":"./x"}]}}`, "did you mean beforeShellExecution", true},
		{"step a case away", `{"version":1,"hooks":{"BeforeReadFile":[{"command":"./x"}]}}`, "did you mean beforeReadFile", true},
		{"step far from any", `{"version":1,"hooks":{"onFileSave":[{"command":"./x"}]}}`, "unknown step", false},
		{"key a case away", `{"version":1,"hooks":{"stop":[{"command":"./x","failclosed":true}]}}`, `did you mean "failClosed"`, true},
		{"key one edit away", `{"version":1,"hooks":{"stop":[{"command":"./x","matchers":"a"}]}}`, `did you mean "matcher"`, true},
		{"key far from any", `{"version":1,"hooks":{"stop":[{"command":"./x","owner":"sec"}]}}`, `unknown key "owner"`, false},
		{"top-level key", `{"version":1,"hook":{}, "hooks":{}}`, `did you mean "hooks"`, true},
		{"version 2", `{"version":2,"hooks":{"stop":[{"command":"./x"}]}}`, "is 2; this format is version 1", true},
		{"loop_limit without follow-ups", `{"version":1,"hooks":{"beforeShellExecution":[{"command":"./x","loop_limit":3}]}}`, "loop_limit has no effect on beforeShellExecution", true},
		{"loop_limit on stop", `{"version":1,"hooks":{"stop":[{"command":"./x","loop_limit":3}]}}`, "", false},
		{"timeout in milliseconds", `{"version":1,"hooks":{"stop":[{"command":"./x","timeout":5000}]}}`, "is 5000 seconds, over an hour", true},
		{"timeout of an hour", `{"version":1,"hooks":{"stop":[{"command":"./x","timeout":3600}]}}`, "", false},
	} {
		f := ParseFile("h.json", []byte(c.file), User, "/d", "/d")
		var found *Problem
		for i, p := range f.Problems {
			if c.want != "" && strings.Contains(p.Error(), c.want) {
				found = &f.Problems[i]
			}
		}
		switch {
		case c.want == "" && len(f.Problems) > 0:
			t.Errorf("%s: problems %v, want none", c.name, f.Problems)
		case c.want != "" && found == nil:
			t.Errorf("%s: problems %v, want one with %q", c.name, f.Problems, c.want)
		case found != nil && (found.Disarms != c.disarms || (found.Severity == Error) != c.disarms):
			t.Errorf("%s: %v (disarms %v, severity %v), want disarms %v", c.name, found, found.Disarms, found.Severity, c.disarms)
		}
	}
}
