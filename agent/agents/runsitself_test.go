package agents_test

import (
	"slices"
	"testing"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
)

// TestRunsItselfResolves: every name a dialect's RunsItself gives is an
// agent's or one of its settings files', and resolves to what that agent
// runs itself: Claude Code all of its own files and their plugins,
// GitHub Copilot CLI the hooks of a project's two files, not the user's
// file nor any plugin (agenthooks runs those for it).
func TestRunsItselfResolves(t *testing.T) {
	for _, a := range agents.All {
		for _, n := range a.Dialect.RunsItself {
			if len(agents.SkipOf([]string{n}).Hooks) == 0 {
				t.Errorf("%s: RunsItself names %q, which is no agent and no settings file", a.Name(), n)
			}
		}
	}
	all := []string{"claude-project-local", "claude-project", "claude-user"}
	for agent, want := range map[string]config.Skip{
		"claude":   {Hooks: all, Plugins: all},
		"copilot":  {Hooks: []string{"claude-project-local", "claude-project"}},
		"codex":    {},
		"gemini":   {},
		"opencode": {},
	} {
		a, ok := agents.Lookup(agent)
		if !ok {
			t.Fatalf("no agent %s", agent)
		}
		got := agents.SkipOf(a.Dialect.RunsItself)
		if !slices.Equal(got.Hooks, want.Hooks) || !slices.Equal(got.Plugins, want.Plugins) {
			t.Errorf("%s runs itself %+v, want %+v", agent, got, want)
		}
	}
	got := agents.SkipOf([]string{"claude-user", "claude", "nobody"})
	if want := []string{"claude-user", "claude-project-local", "claude-project"}; !slices.Equal(got.Hooks, want) || !slices.Equal(got.Plugins, all) {
		t.Errorf("SkipOf: %+v, want each file once, in the order named", got)
	}
}
