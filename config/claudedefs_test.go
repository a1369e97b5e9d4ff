package config

import (
	"encoding/json"
	"path/filepath"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/hookshape"
	"github.com/agenthooks/agenthooks/match"
)

// The tests of this package read another agent's settings files through a
// definition of their own that mirrors Claude Code's (package agent/claude
// holds the real one and tests it; config cannot import it): the same
// files, source names, variables and messages, and enough of the event
// table for the tests here.

type testShape struct{}

func (testShape) Title() string { return "Claude Code" }
func (testShape) Targets(event.Step, map[string]json.RawMessage) ([]string, bool) {
	return nil, false
}
func (testShape) Input(_ event.Step, payload []byte) ([]byte, error) { return payload, nil }
func (testShape) Output(event.Step, int, []byte, []byte) hookshape.Answer {
	return hookshape.Answer{}
}
func (testShape) EnvFileVar() string { return "CLAUDE_ENV_FILE" }
func (testShape) InProcess() bool    { return false }

var testSteps = map[string]event.Step{
	"PreToolUse":         event.PreToolUse,
	"PostToolUse":        event.PostToolUse,
	"PostToolUseFailure": event.PostToolUseFailure,
	"UserPromptSubmit":   event.BeforeSubmitPrompt,
	"Stop":               event.Stop,
	"SubagentStop":       event.SubagentStop,
	"SessionStart":       event.SessionStart,
	"SessionEnd":         event.SessionEnd,
	"PreCompact":         event.PreCompact,
}

func ClaudeLocalFile(root string) string {
	return filepath.Join(root, ".claude", "settings.local.json")
}
func ClaudeProjectFile(root string) string { return filepath.Join(root, ".claude", "settings.json") }
func ClaudeUserFile(home string) string    { return filepath.Join(home, ".claude", "settings.json") }

var testClaude = &Settings{
	Format: &Groups{
		Title: "Claude Code",
		Shape: testShape{},
		Step: func(e string) (event.Step, bool) {
			s, ok := testSteps[e]
			return s, ok
		},
		Events:      []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact"},
		KnownEvents: []string{"Notification", "PermissionRequest", "SubagentStart"},
		HandlerKeys: []string{"type", "command", "prompt", "model", "timeout", "args"},
		IgnoredKeys: map[string]string{
			"statusMessage": "",
			"async":         "the hook runs to completion before the action, so its answer counts",
		},
		Prepare:   match.PrepareNameList,
		NoMatcher: []event.Step{event.Stop, event.BeforeSubmitPrompt},
	},
	Files: []SettingsFile{
		{Name: "claude-project-local", Project: true, Path: ClaudeLocalFile},
		{Name: "claude-project", Project: true, Path: ClaudeProjectFile},
		{Name: "claude-user", Path: ClaudeUserFile},
	},
	ProjectDirVar: "CLAUDE_PROJECT_DIR",
}

// testSettings are the settings the tests' loads read, as a host's
// Locations.Settings would list them; testSources number them.
var (
	testSettings = []*Settings{testClaude}
	testSources  = NewSources(testSettings)
)

var (
	ClaudeProjectLocal = testSources.File(testClaude, 0)
	ClaudeProject      = testSources.File(testClaude, 1)
	ClaudeUser         = testSources.File(testClaude, 2)
)

// ParseClaudeFile reads a settings file of the test definition.
func ParseClaudeFile(path string, data []byte, src Source, dir, root string) *File {
	return testClaude.Format.Parse(path, data, src, dir, root)
}
