// Package opencode is OpenCode: its hook payloads and answers, through
// the plugin that `agenthooks install --agent opencode` writes.
package opencode

import "github.com/agenthooks/agenthooks/agent"

// Agent is this agent's entry in the registry (package agent/agents).
var Agent = &agent.Agent{Dialect: Dialect, Install: Install}
