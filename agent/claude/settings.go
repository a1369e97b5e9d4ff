package claude

import (
	"path/filepath"
	"slices"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/settings"
	"github.com/agenthooks/agenthooks/match"
)

// LocalFile is, like ProjectFile and UserFile, one of Claude Code's settings files
// that hold hooks; UserFile is the user's where CLAUDE_CONFIG_DIR does not
// move it (UserDir).
func LocalFile(root string) string   { return filepath.Join(root, ".claude", "settings.local.json") }
func ProjectFile(root string) string { return filepath.Join(root, ".claude", "settings.json") }
func UserFile(home string) string    { return userSettings(filepath.Join(home, ".claude")) }

// userSettings is the user's settings file in Claude Code's user folder
// dir (UserDir).
func userSettings(dir string) string { return filepath.Join(dir, "settings.json") }

// UserDir is Claude Code's user folder: $CLAUDE_CONFIG_DIR, as Claude Code
// reads it, else ~/.claude. It holds the user's settings file and plugins.
func UserDir(home string, getenv func(string) string) string {
	if d := getenv(settings.ClaudeConfigDir); d != "" {
		return d
	}
	return filepath.Join(home, ".claude")
}

// Settings are Claude Code's settings files as hooks sources, after
// Cursor's four (docs/architecture.md, the sources: ranks 5–7): the
// project's local and shared settings, then the user's. The registry
// (agent/agents) lists them (agents.Settings), which ranks them in its order.
var Settings = &config.Settings{
	Format: Format,
	Files: []config.SettingsFile{
		{Name: "claude-project-local", Project: true, Path: LocalFile},
		{Name: "claude-project", Project: true, Path: ProjectFile},
		{Name: "claude-user", Path: userSettings},
	},
	ProjectDirVar: ProjectDirVar,
	Plugins:       Plugins,
	UserDir:       UserDir,
}

// Format is how config reads Claude Code's settings files.
var Format = &config.Groups{
	Title:       Title,
	Shape:       Shape,
	Step:        Step,
	Events:      Events(),
	KnownEvents: KnownEvents,
	HandlerKeys: []string{"type", "command", "prompt", "model", "timeout", "args"},
	IgnoredKeys: map[string]string{
		"statusMessage":   "",
		"once":            "",
		"continueOnBlock": "",
		"async":           "the hook runs to completion before the action, so its answer counts",
		"asyncRewake":     "the hook runs to completion before the action",
		"if":              "the hook runs for every call its matcher accepts; check the arguments in the hook",
		"shell":           "commands run through sh -c (PowerShell on Windows)",
	},
	Prepare: match.PrepareNameList,
	// Claude Code ignores the matcher of Stop and UserPromptSubmit.
	NoMatcher: []event.Step{event.Stop, event.BeforeSubmitPrompt},
	Tools:     slices.Concat(tools.Names(), otherTools),
}
