package copilot

import (
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/install"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/internal/shellquote"
)

// Install wires GitHub Copilot CLI to agenthooks: a hook file of its own,
// and its folder trust (gates.go).
var Install = &install.Agent{
	Name: "copilot", Title: "Copilot CLI", Program: "copilot",
	Project: func(root string) string { return filepath.Join(root, ".github", "hooks", "agenthooks.json") },
	User: func(e install.Env) string {
		return filepath.Join(e.Dir("COPILOT_HOME", ".copilot"), "hooks", "agenthooks.json")
	},
	// The events go on the command line of each entry of its file.
	Events: installEvents,
	File:   copilotFile,
	Gates:  copilotGates{},
}

// installEvents are the Copilot events agenthooks serves (its table).
// Copilot's camelCase payloads do not name their event, so it goes on the
// command line.
var installEvents = events.Names()

// copilotHook is one entry of a Copilot hook file.
type copilotHook struct {
	Type       string `json:"type"`
	Bash       string `json:"bash"`
	PowerShell string `json:"powershell"`
	TimeoutSec int    `json:"timeoutSec"`
}

func copilotFile(bin string) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"version\": 1,\n  \"hooks\": {")
	for i, ev := range installEvents {
		entry, _ := jsonplain.MarshalIndent([]copilotHook{{
			Type:       "command",
			Bash:       install.POSIXCommand(bin, "copilot", ev),
			PowerShell: "& " + shellquote.PowerShellAlways(bin) + " run --from copilot " + ev,
			TimeoutSec: install.TimeoutSeconds,
		}}, "    ", "  ")
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    " + string(install.MustJSON(ev)) + ": " + string(entry))
	}
	b.WriteString("\n  }\n}\n")
	return []byte(b.String())
}
