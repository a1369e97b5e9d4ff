package agents_test

import (
	"slices"
	"testing"

	"github.com/agenthooks/agenthooks/agent/agents"
)

// TestRunsItselfResolves: every name a dialect's RunsItself gives is an
// agent's or one of its settings files', and resolves to the files that
// agent runs itself: Claude Code all of its own, GitHub Copilot CLI a
// project's two and not the user's (agenthooks runs that one for it).
func TestRunsItselfResolves(t *testing.T) {
	for _, a := range agents.All {
		for _, n := range a.Dialect.RunsItself {
			if len(agents.SourcesOf([]string{n})) == 0 {
				t.Errorf("%s: RunsItself names %q, which is no agent and no settings file", a.Name(), n)
			}
		}
	}
	for agent, want := range map[string][]string{
		"claude":   {"claude-project-local", "claude-project", "claude-user"},
		"copilot":  {"claude-project-local", "claude-project"},
		"codex":    nil,
		"gemini":   nil,
		"opencode": nil,
	} {
		a, ok := agents.Lookup(agent)
		if !ok {
			t.Fatalf("no agent %s", agent)
		}
		if got := agents.SourcesOf(a.Dialect.RunsItself); !slices.Equal(got, want) {
			t.Errorf("%s runs itself %q, want %q", agent, got, want)
		}
	}
	if got := agents.SourcesOf([]string{"claude-user", "claude", "nobody"}); !slices.Equal(got, []string{"claude-user", "claude-project-local", "claude-project"}) {
		t.Errorf("SourcesOf: %q, want each file once, in the order named", got)
	}
}
