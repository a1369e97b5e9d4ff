package dialect

// Refuse renders a blocking answer to an event whose payload could not be
// read, so no Request exists to answer: the agent's strongest "no" that
// needs no knowledge of the event. Claude Code, Codex and Gemini CLI block
// on exit 2 with the reason on stderr; Copilot reads a deny from stdout
// (exit 2 is only a warning to it), in both of its answer shapes; OpenCode's
// adapter throws on {"error"} with exit 2; the hook contract denies with
// {"decision":"deny"} and exit 2.
func (d *Dialect) Refuse(msg string) Answer {
	switch d.Name {
	case Copilot.Name:
		deny := map[string]any{"permissionDecision": "deny", "permissionDecisionReason": msg}
		out := map[string]any{"permissionDecision": "deny", "permissionDecisionReason": msg,
			"hookSpecificOutput": deny}
		return Answer{Stdout: jsonLine(out), Stderr: msg}
	case OpenCode.Name:
		return Answer{Stdout: jsonLine(map[string]any{"error": msg}), Stderr: msg, Code: 2}
	case Contract.Name:
		return Answer{Stdout: jsonLine(map[string]any{"decision": "deny", "reason": msg}), Stderr: msg, Code: 2}
	}
	return Answer{Stderr: msg, Code: 2}
}

// toolGates and promptEvents are the agents' events, in every spelling,
// that gate a tool call or a prompt submission: a payload of one that
// cannot be read could still be an action a hook would block.
var (
	toolGates = map[string]bool{
		"PreToolUse": true, "preToolUse": true, "BeforeTool": true, "tool.execute.before": true,
		"beforeShellExecution": true, "beforeMCPExecution": true, "beforeReadFile": true,
	}
	promptEvents = map[string]bool{
		"UserPromptSubmit": true, "userPromptSubmitted": true, "BeforeAgent": true,
		"chat.message": true, "beforeSubmitPrompt": true,
	}
)

// MayGate reports whether an event may gate a tool call or a prompt
// submission; an event not known at all ("") may be either.
func MayGate(ev string) (tool, prompt bool) {
	if ev == "" {
		return true, true
	}
	return toolGates[ev], promptEvents[ev]
}
