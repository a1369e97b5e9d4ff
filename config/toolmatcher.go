package config

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/event"
)

// cursorToolNames are the tool names Cursor's preToolUse, postToolUse and
// postToolUseFailure matchers are tested against (Cursor's hooks
// documentation; MCP tools are "MCP:<tool>").
var cursorToolNames = []string{"Shell", "Read", "Write", "Grep", "Glob", "Task", "Delete", "WebFetch", "WebSearch", "LS", "MCP"}

// otherAgentsTools are other agents' names for Cursor's tools, which a
// matcher copied from their settings names: Claude Code's Bash is
// Cursor's Shell.
var otherAgentsTools = map[string]string{
	"bash": "Shell", "shell": "Shell", "sh": "Shell", "terminal": "Shell", "run_shell_command": "Shell",
	"edit": "Write", "multiedit": "Write", "write_file": "Write", "replace": "Write",
	"read_file": "Read",
}

// shellToolNames are names of the shell tool, which a beforeShellExecution
// matcher (tested against the command line) holds by mistake.
var shellToolNames = []string{"Shell", "Bash", "Terminal", "run_shell_command"}

// checkMatcherTool reports a matcher, written as one word, that names a
// tool where it can never match: on a tool step, another agent's name for
// a Cursor tool or a tool's name with a different case or spaces around
// it (bash, "Shell "), which match no tool Cursor calls; on
// beforeShellExecution and afterShellExecution, the shell tool's name,
// while their matcher is tested against the command line. Either way the
// hook never runs. A word that is no known tool's name at all may be a
// tool of a newer Cursor, and is left alone.
func (p hookParse) checkMatcherTool(pattern string) {
	word := strings.TrimSpace(pattern)
	if word == "" || strings.ContainsFunc(word, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		return
	}
	switch p.h.Step {
	case event.BeforeShellExecution, event.AfterShellExecution:
		for _, name := range shellToolNames {
			if word == name && pattern == word {
				p.r.disarmAt(p.m.value.off, p.ptr(), fmt.Sprintf("%s names the shell tool, but %s's matcher is tested against the command line, so the hook runs only for commands that contain %q", pattern, p.h.Step, word),
					"remove the matcher to run the hook for every command, or match the command (e.g. \"rm -rf|git push\")")
				return
			}
		}
	case event.PreToolUse, event.PostToolUse, event.PostToolUseFailure:
		// A pattern of word characters (and spaces) is a literal, which
		// an unanchored regular expression finds anywhere in a name:
		// no need to compile it here (matchers compile on first use).
		for _, name := range cursorToolNames {
			if strings.Contains(name, pattern) {
				return
			}
		}
		tool, ok := otherAgentsTools[strings.ToLower(word)]
		for _, name := range cursorToolNames {
			if strings.EqualFold(word, name) {
				tool, ok = name, true
			}
		}
		if !ok {
			return
		}
		p.r.disarmAt(p.m.value.off, p.ptr(), fmt.Sprintf("%q matches no tool Cursor calls: %s's matcher is tested against the tool's name (%s, MCP:<tool>), so the hook never runs", pattern, p.h.Step, strings.Join(cursorToolNames[:len(cursorToolNames)-1], ", ")),
			fmt.Sprintf("match %q", tool))
	}
}
