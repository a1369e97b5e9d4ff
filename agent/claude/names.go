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
	"strings"

	"github.com/agenthooks/agenthooks/event"
)

// steps maps the Claude Code events Cursor runs to Cursor's steps.
// PostToolUseFailure is not in Cursor's table but has an exact
// counterpart, so it is mapped too.
var steps = map[string]event.Step{
	"PreToolUse":         event.PreToolUse,
	"PostToolUse":        event.PostToolUse,
	"PostToolUseFailure": event.PostToolUseFailure,
	"UserPromptSubmit":   event.BeforeSubmitPrompt,
	"Stop":               event.Stop,
	"SubagentStop":       event.SubagentStop,
	"SessionStart":       event.SessionStart,
	"SessionEnd":         event.SessionEnd,
	"PreCompact":         event.PreCompact,
}

// KnownEvents lists Claude Code events that exist but have no Cursor
// step, so their hooks never run here; validate names them.
var KnownEvents = []string{
	"Notification", "PermissionRequest", "PermissionDenied", "Setup",
	"UserPromptExpansion", "PostToolBatch", "SubagentStart", "TaskCreated",
	"TaskCompleted", "TeammateIdle", "ConfigChange", "InstructionsLoaded",
	"MessageDisplay", "StopFailure", "CwdChanged", "DirectoryAdded",
	"FileChanged", "PostCompact", "WorktreeCreate", "WorktreeRemove",
	"Elicitation", "ElicitationResult",
}

// Step returns the Cursor step a Claude Code event runs as.
func Step(claudeEvent string) (event.Step, bool) {
	s, ok := steps[claudeEvent]
	return s, ok
}

// Event returns the Claude Code event name of a Cursor step, "" when the
// step has none.
func Event(step event.Step) string {
	for e, s := range steps {
		if s == step {
			return e
		}
	}
	return ""
}

// Events lists the Claude Code events that run, for messages.
func Events() []string {
	out := make([]string, 0, len(steps))
	for e := range steps {
		out = append(out, e)
	}
	return out
}

// ToolName is Claude Code's name for a Cursor tool: Shell is Bash, a
// Write that replaces a string is Edit, an MCP tool of a known server is
// mcp__<server>__<tool>. Names Claude Code shares with Cursor (Read,
// Grep, Task, WebFetch, …) are kept.
func ToolName(cursorTool string, input map[string]any, server string) string {
	switch {
	case cursorTool == "Shell":
		return "Bash"
	case cursorTool == "Write":
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
	return cursorTool
}

// MatchNames are the names a Claude Code matcher is tested against for a
// Cursor tool: Claude Code's names first, then Cursor's own (Cursor's
// documentation writes "matcher": "Shell" in a Claude settings file). A
// Cursor Write may be any of Claude Code's file-changing tools, since
// Cursor folds Edit into Write.
func MatchNames(cursorTool string, input map[string]any, server string) []string {
	switch {
	case cursorTool == "Shell":
		return []string{"Bash", "Shell"}
	case cursorTool == "Write":
		first := ToolName(cursorTool, input, server)
		names := []string{first}
		for _, n := range []string{"Write", "Edit", "MultiEdit"} {
			if n != first {
				names = append(names, n)
			}
		}
		return names
	case cursorTool == "Task":
		return []string{"Task", "Agent"}
	}
	if n := ToolName(cursorTool, input, server); n != cursorTool {
		return []string{n, cursorTool}
	}
	return []string{cursorTool}
}
