// Package config finds, parses and validates hooks.json files from every
// source (enterprise, team, project, user) and yields the hook definitions
// in priority order, each tagged with where it came from and where it runs.
package config

// Source is where a hooks file came from. Lower values have higher
// priority: the merge takes messages and rewrites from the highest-priority
// hook that gave one.
type Source int

// Cursor's sources, highest priority first (docs/architecture.md, the
// sources). The sources of other agents' settings files rank after them,
// as DefineSettings numbers them.
const (
	Enterprise Source = iota + 1
	Team
	Project
	User
)

var sourceNames = map[Source]string{
	Enterprise: "enterprise",
	Team:       "team",
	Project:    "project",
	User:       "user",
}

func (s Source) String() string {
	if n, ok := sourceNames[s]; ok {
		return n
	}
	if f := definedFile(s); f != nil {
		return f.Name
	}
	return "unknown"
}

// ProjectLevel reports whether hooks from this source come with a
// repository and so run only in a trusted workspace.
func (s Source) ProjectLevel() bool {
	if s == Project {
		return true
	}
	f := definedFile(s)
	return f != nil && f.Project
}

// Settings returns the other agent's settings files the source is one of,
// nil for Cursor's own sources.
func (s Source) Settings() *Settings {
	return definedSettings(s)
}

// LowestSource is the source of lowest priority defined in this process:
// the last source of the last settings defined, else User.
func LowestSource() Source {
	defined.mu.RLock()
	defer defined.mu.RUnlock()
	return User + Source(len(defined.files))
}
