package store

import (
	"strings"
	"testing"
)

// TestValidateHookRefusesDisarmingMistakes: the mistakes validate refuses
// because they silently disarm a guard are refused by the server on
// create and update (ValidateHook), and listed as problems for rows
// already stored (HookBreaches), in validate's words.
func TestValidateHookRefusesDisarmingMistakes(t *testing.T) {
	cases := []struct {
		name, field, said string
		edit              func(*Hook)
	}{
		{"a matcher beforeReadFile never reaches", "matcher", `\.env$ never matches: beforeReadFile's matcher is tested against "Read" alone`,
			func(h *Hook) { h.Step, h.Matcher = "beforeReadFile", `\.env$` }},
		{"a matcher stop never reaches", "matcher", `never matches: stop's matcher is tested against "Stop" alone`,
			func(h *Hook) { h.Step, h.Matcher = "stop", "^git" }},
		{"a timeout in milliseconds", "timeout_seconds", "is 5000 seconds, over an hour: timeout is in seconds, not milliseconds",
			func(h *Hook) { h.TimeoutSeconds = 5000 }},
	}
	team := Team{ID: 7, Name: "platform"}
	var stored []Hook
	for i, c := range cases {
		h := sampleHook("guard.sh")
		c.edit(&h)
		err := ValidateHook(h, DefaultMaxScriptBytes)
		ve, ok := err.(*ValidationError)
		if !ok || ve.Field != c.field || !strings.Contains(ve.Problem, c.said) {
			t.Errorf("%s: ValidateHook = %v, want %s: …%s…", c.name, err, c.field, c.said)
		}
		h.ID, h.ScriptName = int64(i+1), h.ScriptName+string(rune('a'+i))
		stored = append(stored, h)
	}
	// A matcher a step does reach, and an hour exactly, pass.
	ok := sampleHook("ok.sh")
	ok.Step, ok.Matcher, ok.TimeoutSeconds = "beforeReadFile", "Read", 3600
	if err := ValidateHook(ok, DefaultMaxScriptBytes); err != nil {
		t.Errorf("a reachable matcher and a one-hour timeout: %v", err)
	}
	breaches := HookBreaches(team, stored, DefaultMaxScriptBytes)
	if len(breaches) != len(cases) {
		t.Fatalf("breaches %v, want one per stored row", breaches)
	}
	for i, b := range breaches {
		if b.HookID != stored[i].ID || b.Field != cases[i].field || !strings.Contains(b.Problem, cases[i].said) {
			t.Errorf("breach %v, want hook %d's %s", b, stored[i].ID, cases[i].field)
		}
	}
}
