// Package config finds, parses and validates hooks.json files from every
// source (enterprise, team, project, user) and yields the hook definitions
// in priority order, each tagged with where it came from and where it runs.
package config

import "cmp"

// Source is where a hooks file came from: its rank (lower ranks have
// higher priority: the merge takes messages and rewrites from the
// highest-priority hook that gave one), its name in listings, logs and
// stored sessions, whether it is project-level, and, for another agent's
// settings file, that agent's Settings. A Source says all of this itself;
// the sources a host knows, and so the Source a stored name stands for,
// are a Sources value made per host. The zero Source is no source
// ("unknown").
type Source struct {
	rank     int
	name     string
	project  bool
	settings *Settings
}

// Cursor's sources, highest priority first (docs/architecture.md, the
// sources). The sources of other agents' settings files rank after them,
// as Sources numbers them.
var (
	Enterprise = Source{rank: 1, name: "enterprise"}
	Team       = Source{rank: 2, name: "team"}
	Project    = Source{rank: 3, name: "project", project: true}
	User       = Source{rank: 4, name: "user"}
)

// String is the source's name, "unknown" for the zero Source.
func (s Source) String() string {
	if s.name == "" {
		return "unknown"
	}
	return s.name
}

// Rank is the source's place in priority order: 1 is the highest.
func (s Source) Rank() int { return s.rank }

// Compare orders sources by priority: negative when s has a higher
// priority than t, zero when they have the same rank.
func (s Source) Compare(t Source) int { return cmp.Compare(s.rank, t.rank) }

// ProjectLevel reports whether hooks from this source come with a
// repository and so run only in a trusted workspace.
func (s Source) ProjectLevel() bool { return s.project }

// Settings returns the other agent's settings files the source is one of,
// nil for Cursor's own sources.
func (s Source) Settings() *Settings { return s.settings }
