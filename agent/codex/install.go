package codex

import (
	"path/filepath"

	"github.com/agenthooks/agenthooks/install"
)

// Install wires Codex to agenthooks: a matcher group per event in its
// hooks.json, and its gates (gates.go).
var Install = &install.Agent{
	Name: "codex", Title: "Codex", Program: "codex",
	Project: func(root string) string { return filepath.Join(root, ".codex", "hooks.json") },
	User:    func(e install.Env) string { return filepath.Join(e.Dir("CODEX_HOME", ".codex"), "hooks.json") },
	Events:  events.Names(),
	Group: func(command, event string) install.Group {
		t := install.TimeoutSeconds
		if event == "SessionEnd" {
			// Codex gives SessionEnd hooks 3 s at most, and warns
			// about a longer timeout at every start.
			t = 3
		}
		return install.Group{Hooks: []install.Handler{{Type: "command", Command: command, Timeout: t}}}
	},
	Gates: codexGates{},
}
