// Package agents is the registry of agents: one line per agent, each an
// agent.Agent its own package (agent/<name>) defines. The host, the
// command line, export and install look agents up here and nowhere else,
// so adding an agent is its folder and its line below.
package agents

import (
	"slices"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/claude"
	"github.com/agenthooks/agenthooks/agent/codex"
	"github.com/agenthooks/agenthooks/agent/contract"
	"github.com/agenthooks/agenthooks/agent/copilot"
	"github.com/agenthooks/agenthooks/agent/gemini"
	"github.com/agenthooks/agenthooks/agent/opencode"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/export"
	"github.com/agenthooks/agenthooks/install"
)

// All are the agents, in the order the command line lists them.
var All = []*agent.Agent{
	claude.Agent,
	codex.Agent,
	gemini.Agent,
	copilot.Agent,
	opencode.Agent,
	contract.Agent,
}

// Settings are every agent's settings files that are hooks sources
// (Agent.Settings), in All's order, which is their rank after Cursor's:
// what a host gives config.Load (config.Locations.Settings) and trust
// pins (config.Sources.ProjectPins). The registry is the one place that
// lists them; config keeps no list of its own, so an agent's package
// only describes its files.
func Settings() []*config.Settings {
	var out []*config.Settings
	for _, a := range All {
		if a.Settings != nil {
			out = append(out, a.Settings)
		}
	}
	return out
}

// Sources are the hooks sources of every agent: Cursor's four, then the
// files of Settings.
func Sources() config.Sources { return config.NewSources(Settings()) }

// SkipOf resolves a Dialect's RunsItself to what a host leaves unread
// for it (config.Locations.Skip): an agent's name stands for every file
// of its Settings and the plugins they enable (the agent runs both), a
// source's name (config.SettingsFile.Name) for that file's own hooks
// alone (another agent that runs the file's hooks does not run the
// plugins it enables). A name that is neither resolves to nothing;
// TestRunsItselfResolves keeps the dialects' names known.
func SkipOf(names []string) config.Skip {
	var s config.Skip
	for _, n := range names {
		for _, a := range All {
			if a.Settings == nil {
				continue
			}
			for _, f := range a.Settings.Files {
				if (n == a.Name() || n == f.Name) && !slices.Contains(s.Hooks, f.Name) {
					s.Hooks = append(s.Hooks, f.Name)
				}
				if n == a.Name() && !slices.Contains(s.Plugins, f.Name) {
					s.Plugins = append(s.Plugins, f.Name)
				}
			}
		}
	}
	return s
}

// Lookup returns the agent named by a --from value.
func Lookup(name string) (*agent.Agent, bool) {
	for _, a := range All {
		if a.Name() == name {
			return a, true
		}
	}
	return nil, false
}

// Export are the agents export writes settings for, in All's order.
func Export() export.Targets {
	var ts export.Targets
	for _, a := range All {
		if a.Export != nil {
			ts = append(ts, a.Export)
		}
	}
	return ts
}

// Install are the agents install wires, in All's order.
func Install() install.Agents {
	var as install.Agents
	for _, a := range All {
		if a.Install != nil {
			as = append(as, a.Install)
		}
	}
	return as
}

// MayGate reports whether an event of any agent may gate a tool call or a
// prompt submission (each agent's GateEvents and PromptEvents); an event
// not known at all ("") may be either.
func MayGate(ev string) (tool, prompt bool) {
	if ev == "" {
		return true, true
	}
	for _, a := range All {
		t, p := a.Dialect.MayGate(ev)
		tool, prompt = tool || t, prompt || p
	}
	return tool, prompt
}

// Names lists the agents' names, in All's order.
func Names() []string {
	out := make([]string, len(All))
	for i, a := range All {
		out[i] = a.Name()
	}
	return out
}
