// Package copilot is GitHub Copilot: its hook payloads and answers, in
// both of its formats.
package copilot

import "github.com/agenthooks/agenthooks/agent"

// Agent is this agent's entry in the registry (package agent/agents).
var Agent = &agent.Agent{Dialect: Dialect, Install: Install, Export: Export}
