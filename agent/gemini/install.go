package gemini

import (
	"path/filepath"

	"github.com/agenthooks/agenthooks/install"
)

// Install wires Gemini CLI to agenthooks: a matcher group per event in
// its settings.json, and its folder trust (gates.go).
var Install = &install.Agent{
	Name: "gemini", Title: "Gemini CLI", Program: "gemini",
	Project: func(root string) string { return filepath.Join(root, ".gemini", "settings.json") },
	User: func(e install.Env) string {
		return filepath.Join(e.Dir("GEMINI_CLI_HOME", ""), ".gemini", "settings.json")
	},
	Events: events.Names(),
	Group: func(command, _ string) install.Group {
		return install.Group{Matcher: "*", Hooks: []install.Handler{{Name: "agenthooks", Type: "command", Command: command, Timeout: install.TimeoutSeconds * 1000}}}
	},
	Note: "Gemini CLI runs settings hooks only in a trusted folder: trust it in Gemini CLI " +
		"(the trust dialog, or ~/.gemini/trustedFolders.json).",
	Gates:       geminiGates{},
	FolderTrust: true,
}
