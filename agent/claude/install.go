package claude

import (
	"path/filepath"

	"github.com/agenthooks/agenthooks/install"
)

// Install wires Claude Code to agenthooks: a matcher group per event in
// its settings.json, for every event of the table.
var Install = &install.Agent{
	Name: "claude", Title: "Claude Code", Program: "claude",
	HomeDirs: []string{filepath.Join(".claude", "local")},
	Project:  ProjectFile,
	User:     func(e install.Env) string { return UserFile(e.Home) },
	// Every event of the table (tables.go).
	Events: Events(),
	Group: func(command, _ string) install.Group {
		return install.Group{Hooks: []install.Handler{{Type: "command", Command: command}}}
	},
}
