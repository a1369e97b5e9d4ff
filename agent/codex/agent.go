// Package codex is Codex: its hook payloads and answers (Claude Code's
// payload shape, package agent/claude, with its own events and tools).
package codex

import "github.com/agenthooks/agenthooks/agent"

// Agent is this agent's entry in the registry (package agent/agents).
var Agent = &agent.Agent{Dialect: Dialect, Install: Install, Export: Export}
