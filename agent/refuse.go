package agent

import "slices"

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

// MayGate reports whether an event of the agent may gate a tool call or a
// prompt submission; an event not known at all ("") may be either.
func (d *Dialect) MayGate(ev string) (tool, prompt bool) {
	if ev == "" {
		return true, true
	}
	return slices.Contains(d.GateEvents, ev), slices.Contains(d.PromptEvents, ev)
}
