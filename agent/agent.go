package agent

import (
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/export"
	"github.com/agenthooks/agenthooks/install"
)

// Agent gathers one agent's parts, each written once in the agent's own
// package (agent/<name>): the registry (package agent/agents) lists one
// Agent per agent, and the host, the command line, export and install
// look agents up there.
type Agent struct {
	// Dialect reads the agent's hook payloads and renders its answers
	// (`agenthooks run --from NAME`).
	Dialect *Dialect
	// Settings are the agent's own settings files, run as hooks sources
	// after Cursor's (the registry lists them, agents.Settings, and a host
	// hands the list to config.Load); nil when agenthooks does not run
	// them.
	Settings *config.Settings
	// Export is the agent's native hook settings, for `agenthooks export
	// --to NAME`; nil when export does not write them.
	Export *export.Target
	// Install is how `agenthooks install --agent NAME` wires the agent to
	// agenthooks, and its own gates; nil when install does not.
	Install *install.Agent
}

// Name is the agent's name on the command line (--from, --to, --agent).
func (a *Agent) Name() string { return a.Dialect.Name }

// Title is the agent's name in messages.
func (a *Agent) Title() string { return a.Dialect.Title }
