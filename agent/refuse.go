package agent

// Refuse renders a blocking answer to an event whose payload could not be
// read, so no Request exists to answer: the agent's strongest "no" that
// needs no knowledge of the event (RefuseFn). Without one, exit 2 with
// the reason on stderr, which blocks in Claude Code, Codex and Gemini CLI.
func (d *Dialect) Refuse(msg string) Answer {
	if d.RefuseFn != nil {
		return d.RefuseFn(msg)
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
