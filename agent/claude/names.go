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
	"encoding/json"
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

// mcpServer is the server of an MCP tool's payload: its "server" field,
// else the likeliest of its "mcp_readings" (an agent whose MCP tool
// names leave open where the server's name ends), whose other readings
// are returned as Claude Code's names, for matchers to be tested against
// too. A tool that only may be an MCP tool (its name is not MCP:<tool>)
// has no server, and every reading is returned.
func mcpServer(fields map[string]json.RawMessage) (server string, more []string) {
	if s := str(fields, "server"); s != "" {
		return s, nil
	}
	raw := fields["mcp_readings"]
	if len(raw) == 0 {
		return "", nil
	}
	var readings []agent.MCPReading
	if json.Unmarshal(raw, &readings) != nil || len(readings) == 0 {
		return "", nil
	}
	for _, r := range readings {
		more = append(more, mcpName(r.Server, r.Tool))
	}
	if !strings.HasPrefix(str(fields, "tool_name"), agent.ToolMCP) {
		// A tool that may be an MCP tool keeps its name.
		return "", more
	}
	return readings[0].Server, more[1:]
}

// mcpName is Claude Code's name of an MCP tool.
func mcpName(server, tool string) string { return "mcp__" + server + "__" + tool }

// unknownServerNames are the names a Claude Code matcher is tested
// against for an MCP tool whose server no payload field names (Cursor's
// own MCP:<tool>, which says nothing of the server): the tool under every
// server the matcher itself names. A matcher that names servers cannot be
// decided without the server, so it is taken at its word: the hook runs
// for the tool whichever server serves it, rather than never
// (mcp__memory__.* runs for every MCP tool there; mcp__memory__save only
// for tools named save). Servers are read from the matcher's text: what
// follows each "mcp__" up to the next "__", split at every character that
// cannot be in a name (so mcp__(memory|notes)__.* names both).
func unknownServerNames(tool, matcher string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(server string) {
		if n := mcpName(server, tool); !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	rest := matcher
	for {
		i := strings.Index(rest, "mcp__")
		if i < 0 {
			break
		}
		rest = rest[i+len("mcp__"):]
		part, _, _ := strings.Cut(rest, "__")
		for _, s := range strings.FieldsFunc(part, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.')
		}) {
			add(s)
		}
		if strings.Contains(part, ".") || strings.ContainsAny(part, "[(*+?\\") {
			// A pattern in the server's place (mcp__.*__x, mcp__[a-z]+__x):
			// any name a pattern could take stands in.
			add("server")
		}
	}
	return out
}
