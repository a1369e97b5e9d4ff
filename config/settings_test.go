package config

import (
	"slices"
	"testing"
)

// TestDefinedSources: another agent's settings files are sources ranked
// after Cursor's four, named and levelled as defined, their format found
// from the source; the names stored in sessions and logs read back.
func TestDefinedSources(t *testing.T) {
	if ClaudeProjectLocal.Rank() != User.Rank()+1 || ClaudeProject.Rank() != User.Rank()+2 || ClaudeUser.Rank() != User.Rank()+3 {
		t.Fatalf("ranks %d %d %d, want %d…", ClaudeProjectLocal.Rank(), ClaudeProject.Rank(), ClaudeUser.Rank(), User.Rank()+1)
	}
	for src, want := range map[Source]string{Enterprise: "enterprise", User: "user", ClaudeProjectLocal: "claude-project-local",
		ClaudeProject: "claude-project", ClaudeUser: "claude-user", {}: "unknown"} {
		if src.String() != want {
			t.Errorf("%d: %q, want %q", src.Rank(), src.String(), want)
		}
		if got, ok := testSources.Named(want); want != "unknown" && (!ok || got != src) {
			t.Errorf("Named(%q) = %v, %v", want, got, ok)
		}
	}
	if !ClaudeProject.ProjectLevel() || !ClaudeProjectLocal.ProjectLevel() || ClaudeUser.ProjectLevel() || User.ProjectLevel() {
		t.Error("project level is not as defined")
	}
	if ClaudeUser.Settings() != testClaude || User.Settings() != nil {
		t.Error("a source's settings are not its definition's")
	}
	if testSources.Lowest().Compare(ClaudeUser) < 0 {
		t.Errorf("Lowest = %v", testSources.Lowest())
	}
	if got := testSources.ProjectDirVars(); !slices.Equal(got[:2], []string{"CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR"}) {
		t.Errorf("ProjectDirVars = %v", got)
	}
	if got := testSources.AgentVars(); !slices.Contains(got, "CLAUDE_PROJECT_DIR") || !slices.Contains(got, "CLAUDE_ENV_FILE") {
		t.Errorf("AgentVars = %v", got)
	}
}

// TestSourcesArePerLoad: sources are numbered from the settings each
// load is given, not from a table of the process: no settings are
// Cursor's four alone, and the same settings give the same sources.
func TestSourcesArePerLoad(t *testing.T) {
	var none Sources
	if got := none.All(); !slices.Equal(got, []Source{Enterprise, Team, Project, User}) || none.Lowest() != User {
		t.Errorf("zero Sources = %v, lowest %v", got, none.Lowest())
	}
	if _, ok := none.Named("claude-user"); ok {
		t.Error("the zero Sources know another agent's source")
	}
	if got := none.ProjectDirVars(); !slices.Equal(got, []string{"CURSOR_PROJECT_DIR"}) {
		t.Errorf("zero Sources' ProjectDirVars = %v", got)
	}
	again := NewSources([]*Settings{testClaude, testClaude})
	if !slices.Equal(again.All(), testSources.All()) {
		t.Errorf("NewSources is not a function of its settings: %v vs %v", again.All(), testSources.All())
	}
	if src := none.File(testClaude, 0); src != (Source{}) {
		t.Errorf("File of settings not given = %v", src)
	}
}
