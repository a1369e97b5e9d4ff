package config

import (
	"slices"
	"testing"
)

// TestDefinedSources: another agent's settings files are sources ranked
// after Cursor's four, named and levelled as defined, their format found
// from the source; the names stored in sessions and logs read back.
func TestDefinedSources(t *testing.T) {
	if ClaudeProjectLocal != User+1 || ClaudeProject != User+2 || ClaudeUser != User+3 {
		t.Fatalf("ranks %d %d %d, want %d…", ClaudeProjectLocal, ClaudeProject, ClaudeUser, User+1)
	}
	for src, want := range map[Source]string{Enterprise: "enterprise", User: "user", ClaudeProjectLocal: "claude-project-local",
		ClaudeProject: "claude-project", ClaudeUser: "claude-user", Source(99): "unknown"} {
		if src.String() != want {
			t.Errorf("%d: %q, want %q", src, src.String(), want)
		}
	}
	if !ClaudeProject.ProjectLevel() || !ClaudeProjectLocal.ProjectLevel() || ClaudeUser.ProjectLevel() || User.ProjectLevel() {
		t.Error("project level is not as defined")
	}
	if ClaudeUser.Settings() != testClaude || User.Settings() != nil {
		t.Error("a source's settings are not its definition's")
	}
	if LowestSource() < ClaudeUser {
		t.Errorf("LowestSource = %v", LowestSource())
	}
	if got := ProjectDirVars(); !slices.Equal(got[:2], []string{"CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR"}) {
		t.Errorf("ProjectDirVars = %v", got)
	}
	if got := AgentVars(); !slices.Contains(got, "CLAUDE_PROJECT_DIR") || !slices.Contains(got, "CLAUDE_ENV_FILE") {
		t.Errorf("AgentVars = %v", got)
	}
}
