// Package config finds, parses and validates hooks.json files from every
// source (enterprise, team, project, user) and yields the hook definitions
// in priority order, each tagged with where it came from and where it runs.
package config

// Source is where a hooks file came from. Lower values have higher
// priority: the merge takes messages and rewrites from the highest-priority
// hook that gave one.
type Source int

// The sources, highest priority first (docs/architecture.md, the sources).
const (
	Enterprise Source = iota + 1
	Team
	Project
	User
	ClaudeProjectLocal // <root>/.claude/settings.local.json
	ClaudeProject      // <root>/.claude/settings.json
	ClaudeUser         // ~/.claude/settings.json
)

var sourceNames = map[Source]string{
	Enterprise:         "enterprise",
	Team:               "team",
	Project:            "project",
	User:               "user",
	ClaudeProjectLocal: "claude-project-local",
	ClaudeProject:      "claude-project",
	ClaudeUser:         "claude-user",
}

func (s Source) String() string {
	if n, ok := sourceNames[s]; ok {
		return n
	}
	return "unknown"
}

// ProjectLevel reports whether hooks from this source come with a
// repository and so run only in a trusted workspace.
func (s Source) ProjectLevel() bool {
	return s == Project || s == ClaudeProjectLocal || s == ClaudeProject
}

// Claude reports whether the source is a Claude Code settings file.
func (s Source) Claude() bool {
	return s == ClaudeProjectLocal || s == ClaudeProject || s == ClaudeUser
}
