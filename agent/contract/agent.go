// Package contract is the cross-agent hook contract (docs/dialects.md):
// the dialect of a host that speaks it, and the translation that lets a
// hook written to it run in hooks.json unchanged.
package contract

import "github.com/agenthooks/agenthooks/agent"

// Agent is this agent's entry in the registry (package agent/agents).
var Agent = &agent.Agent{Dialect: Dialect}
