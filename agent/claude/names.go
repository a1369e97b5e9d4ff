// Package claude is Claude Code: its hook payloads and answers, its
// native export, its install wiring, and the adapter that runs its own
// hooks the way Cursor runs its "third-party hooks": the hooks of
// .claude/settings(.local).json and ~/.claude/settings.json are Cursor
// hooks of the mapped steps, matched by Claude Code's matcher rule
// against Claude Code's tool names, fed the payload shape they were
// written for, and their answers (exit 2 with stderr, decision "block",
// hookSpecificOutput.permissionDecision, …) read back as Cursor
// responses.
//
// The event and tool tables are written once, here; config reads the
// settings files with them (Settings), and the engine and runner run
// their hooks through Shape.
package claude

import (
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/event"
)

// Step returns the Cursor step a Claude Code event runs as.
func Step(claudeEvent string) (event.Step, bool) {
	for _, e := range events {
		if e.Name == claudeEvent {
			return e.Step, true
		}
	}
	return "", false
}

// Event returns the Claude Code event name of a Cursor step, "" when the
// step has none.
func Event(step event.Step) string {
	for _, e := range events {
		if e.Step == step {
			return e.Name
		}
	}
	return ""
}

// Events lists the Claude Code events that run, for messages.
func Events() []string {
	out := make([]string, 0, len(events))
	for _, e := range events {
		out = append(out, e.Name)
	}
	return out
}

// ToolName is Claude Code's name for a Cursor tool: the first of the
// tools table's for it (Shell is Bash), except that a Write that replaces
// a string is Edit, one with edits MultiEdit, and an MCP tool of a known
// server is mcp__<server>__<tool>. Names Claude Code shares with Cursor
// (Read, Grep, Task, WebFetch, …) are kept.
func ToolName(cursorTool string, input map[string]any, server string) string {
	switch {
	case cursorTool == agent.ToolWrite:
		if _, ok := input["old_string"]; ok {
			return "Edit"
		}
		if _, ok := input["edits"]; ok {
			return "MultiEdit"
		}
		return "Write"
	case strings.HasPrefix(cursorTool, "MCP:") && server != "":
		return "mcp__" + server + "__" + strings.TrimPrefix(cursorTool, "MCP:")
	}
	if names := tools.NamesOf(cursorTool); len(names) > 0 {
		return names[0]
	}
	return cursorTool
}

// MatchNames are the names a Claude Code matcher is tested against for a
// Cursor tool: the name Claude Code gives this call first, then Claude
// Code's other names for the same Cursor tool (a Cursor Write may be any
// of Claude Code's file-changing tools, since Cursor folds Edit into
// Write), then Cursor's own (Cursor's documentation writes "matcher":
// "Shell" in a Claude settings file).
func MatchNames(cursorTool string, input map[string]any, server string) []string {
	names := []string{ToolName(cursorTool, input, server)}
	for _, n := range append(tools.NamesOf(cursorTool), cursorTool) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}
