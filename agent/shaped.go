package agent

import (
	"fmt"
	"maps"
	"slices"

	"github.com/agenthooks/agenthooks/event"
)

// PayloadShape is Claude Code's payload shape, which Codex and Gemini CLI
// share: hook_event_name, session_id, transcript_path, cwd and the event's
// fields beside them. It lives here, not in one agent's package, so that
// no agent package imports another.
type PayloadShape struct {
	// Agent is the agent's name in messages.
	Agent string
	// Generation is the key of the turn's id, "" when the agent sends
	// none; Model reports that the payload names the model.
	Generation string
	Model      bool
	// Events maps the agent's events with a Cursor counterpart to their
	// kind.
	Events map[string]Kind
	// Tool fills in r.ToolUse and r.Calls for a tool event (r.Kind Tool,
	// PostTool or ToolFailure; it may change it); a field it cannot read
	// is left in f.Err.
	Tool func(c Common, f *Fields, r *Request)
}

// Parse reads a payload in Claude's shape.
func (s *PayloadShape) Parse(payload []byte, arg string) (*Request, error) {
	m, err := Object(s.Agent, payload)
	if err != nil {
		return nil, err
	}
	f := &Fields{M: m, Agent: s.Agent}
	ev := OrElse(f.Str("hook_event_name"), arg)
	if ev == "" {
		f.Fail(fmt.Errorf(`field "hook_event_name" is missing; %s always sends it`, s.Agent))
		return nil, f.Err
	}
	f.Event = ev
	c := Common{Conversation: f.Str("session_id")}
	if s.Generation != "" {
		c.Generation = f.Str(s.Generation)
	}
	if s.Model {
		c.Model = f.Str("model")
	}
	c.Transcript = f.Str("transcript_path")
	c.Cwd = f.Str("cwd")
	kind, ok := s.Events[ev]
	if !ok {
		return NoneRequest(ev, fmt.Sprintf("%s event %q has no Cursor counterpart; no hooks ran (mapped: %s)",
			s.Agent, ev, EventList(slices.Collect(maps.Keys(s.Events))))), nil
	}
	r := &Request{Event: ev, Kind: kind, Cwd: c.Cwd, Shared: c}
	switch kind {
	case Tool, PostTool, ToolFailure:
		f.Gate = kind == Tool
		s.Tool(c, f, r)
	default:
		r.Calls = []Call{lifecycleCall(c, kind, f)}
	}
	if f.Err != nil {
		return nil, f.Err
	}
	return r, nil
}

// lifecycleCall is the step of an event without a tool, from the fields
// Claude Code, Codex and Gemini CLI name alike.
func lifecycleCall(c Common, k Kind, f *Fields) Call {
	switch k {
	case Prompt:
		return c.PromptCall(f.Str("prompt"))
	case Stop:
		return c.StopCall(event.StatusCompleted, f.Bool("stop_hook_active"), true)
	case SubagentStop:
		return c.SubagentStopCall(f.Str("agent_id"), f.Str("agent_type"), f.Str("last_assistant_message"),
			f.Str("agent_transcript_path"), f.Bool("stop_hook_active"), true)
	case SessionStart:
		return c.SessionStartCall(f.Str("source"))
	case SessionEnd:
		return c.SessionEndCall(f.Str("reason"))
	}
	return c.CompactCall(f.Str("trigger"))
}

// ToolEvent fills in a Claude-shaped tool event (Claude Code, Codex): the
// steps before the tool, after it (tool_response, duration_ms), or after
// it failed (error, is_interrupt).
func ToolEvent(c Common, f *Fields, r *Request, t *ToolCall) {
	if f.Err != nil {
		return
	}
	r.ToolUse = t
	switch r.Kind {
	case Tool:
		r.Calls = c.PreCalls(t)
	case PostTool:
		resp := f.Raw("tool_response")
		r.Calls = c.PostCalls(t, resp, ResultText(resp), f.Number("duration_ms"))
	default:
		r.Calls = []Call{c.FailureCall(t, f.Str("error"), f.Bool("is_interrupt"), f.Number("duration_ms"))}
	}
}

// ToolOf reads tool_name, tool_input and tool_use_id, as Claude Code
// and Codex send them. Their input keys are already Cursor's (file_path,
// command), so the hooks get them as sent; tools maps the agent's tool
// names to Cursor's.
func ToolOf(c Common, f *Fields, tools map[string]ToolSpec) *ToolCall {
	name := f.Need("tool_name")
	agentInput := f.NeedObj("tool_input")
	useID := f.Str("tool_use_id")
	if server, tool, ok := SplitMCP(name); ok {
		return MCPToolCall(name, useID, server, tool, agentInput, Clone(agentInput))
	}
	return c.Describe(name, SpecOf(tools, name), useID, agentInput, Clone(agentInput))
}

// AnswerShaped builds an answer in Claude's output shape, which Codex
// shares: everything but the tool decision, which each agent words its own
// way (toolDecision fills hookSpecificOutput for Tool events).
func AnswerShaped(r *Request, v *Verdict, toolDecision func(hso map[string]any)) Answer {
	out := map[string]any{}
	hso := map[string]any{"hookEventName": r.Event}
	switch r.Kind {
	case Tool:
		toolDecision(hso)
	case PostTool:
		if v.Context != "" {
			hso["additionalContext"] = v.Context
		}
		if len(v.UpdatedToolOutput) > 0 && r.ToolUse != nil && r.ToolUse.Kind == KindMCP {
			hso["updatedMCPToolOutput"] = v.UpdatedToolOutput
		}
	case Prompt:
		if v.PromptBlocked {
			out["decision"] = "block"
			out["reason"] = OrElse(v.PromptMessage, "Submission blocked by hook")
		}
	case Stop, SubagentStop:
		if v.Followup != "" {
			out["decision"] = "block"
			out["reason"] = v.Followup
		}
	case SessionStart:
		if v.Context != "" {
			hso["additionalContext"] = v.Context
		}
	case Compact:
		if v.Notice != "" {
			out["systemMessage"] = v.Notice
		}
	}
	if len(hso) > 1 {
		out["hookSpecificOutput"] = hso
	}
	a := Answer{Env: sessionEnv(r, v)}
	if len(out) > 0 {
		a.Stdout = JSONLine(out)
	}
	return a
}

// sessionEnv is the env a sessionStart set, for the agent's env file.
func sessionEnv(r *Request, v *Verdict) map[string]string {
	if r.Kind != SessionStart || len(v.Env) == 0 {
		return nil
	}
	return v.Env
}

// StopBlockAnswer is how a Claude-shaped agent reads a follow-up at Stop
// and SubagentStop, as export words it.
const StopBlockAnswer = `decision "block" with a reason, not followup_message`
