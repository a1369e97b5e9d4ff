package claude

import (
	"fmt"
	"maps"
	"slices"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
)

// Claude is Claude Code's dialect: `agenthooks run --from claude` as a
// command hook in ~/.claude/settings.json (or a project's
// .claude/settings.json) for the events below.
//
// In: the payload of Claude Code's hooks reference (session_id,
// transcript_path, cwd, hook_event_name and the event's fields;
// docs/dialects.md).
//
//	PreToolUse         preToolUse, + beforeShellExecution (Bash),
//	                   beforeReadFile (Read), beforeMCPExecution
//	                   (mcp__server__tool), subagentStart (Task/Agent)
//	PostToolUse        postToolUse, + afterShellExecution (Bash),
//	                   afterFileEdit (Write/Edit/MultiEdit/NotebookEdit),
//	                   afterMCPExecution
//	PostToolUseFailure postToolUseFailure
//	UserPromptSubmit   beforeSubmitPrompt
//	Stop, SubagentStop stop, subagentStop
//	SessionStart, SessionEnd, PreCompact  sessionStart, sessionEnd, preCompact
//	anything else      no hooks (no Cursor counterpart)
//
// Out: JSON on stdout and exit 0, Claude's preferred form:
// hookSpecificOutput.permissionDecision deny (permissionDecisionReason
// reaches the model) or ask (Claude has ask); allow only with
// --allow-means=approve; updatedInput for a rewrite; decision "block" with
// a reason for a blocked prompt or a follow-up at Stop/SubagentStop;
// additionalContext at SessionStart and PostToolUse; the sessionStart env
// appended to $CLAUDE_ENV_FILE. A payload agenthooks cannot read exits 1
// with the error on stderr: Claude treats that as a non-blocking error,
// its convention for every failing hook (fail-open), gating events
// included.
var Dialect = &agent.Dialect{
	Name:           "claude",
	GateEvents:     eventsOfKind(agent.Tool),
	PromptEvents:   eventsOfKind(agent.Prompt),
	Title:          "Claude Code",
	EnvFileVars:    []string{"CLAUDE_ENV_FILE"},
	ProjectDirVars: []string{"CLAUDE_PROJECT_DIR"},
	// Claude Code runs its own settings files' hooks.
	RunsItself: []*config.Settings{Settings},
	ParseFn:    claudeShaped.Parse,
	AnswerFn:   answerClaude,
}

// claudeTools and claudeEvents are the tables (tables.go) as the dialect
// reads them.
var (
	claudeTools  = tools.Specs()
	claudeEvents = eventKinds()
)

// claudeShape is Claude Code's payload shape, which Codex and Gemini CLI
// share: hook_event_name, session_id, transcript_path, cwd and the event's
// fields beside them.
type PayloadShape struct {
	Agent string
	// generation is the key of the turn's id, "" when the agent sends
	// none; model reports that the payload names the model.
	Generation string
	Model      bool
	// events maps the agent's events with a Cursor counterpart to their
	// kind.
	Events map[string]agent.Kind
	// tool fills in r.tool and r.Calls for a tool event (r.Kind Tool,
	// PostTool or ToolFailure; it may change it); a field it cannot read
	// is left in f.err.
	Tool func(c agent.Common, f *agent.Fields, r *agent.Request)
}

var claudeShaped = &PayloadShape{Agent: "Claude Code", Generation: "prompt_id", Model: true, Events: claudeEvents,
	Tool: func(c agent.Common, f *agent.Fields, r *agent.Request) {
		ToolEvent(c, f, r, ToolOf(c, f, claudeTools))
	}}

// parse reads a payload in Claude's shape.
func (s *PayloadShape) Parse(payload []byte, arg string) (*agent.Request, error) {
	m, err := agent.Object(s.Agent, payload)
	if err != nil {
		return nil, err
	}
	f := &agent.Fields{M: m, Agent: s.Agent}
	ev := agent.OrElse(f.Str("hook_event_name"), arg)
	if ev == "" {
		f.Fail(fmt.Errorf(`field "hook_event_name" is missing; %s always sends it`, s.Agent))
		return nil, f.Err
	}
	f.Event = ev
	c := agent.Common{Conversation: f.Str("session_id")}
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
		return agent.NoneRequest(ev, fmt.Sprintf("%s event %q has no Cursor counterpart; no hooks ran (mapped: %s)",
			s.Agent, ev, agent.EventList(slices.Collect(maps.Keys(s.Events))))), nil
	}
	r := &agent.Request{Event: ev, Kind: kind, Cwd: c.Cwd, Shared: c}
	switch kind {
	case agent.Tool, agent.PostTool, agent.ToolFailure:
		f.Gate = kind == agent.Tool
		s.Tool(c, f, r)
	default:
		r.Calls = []agent.Call{lifecycleCall(c, kind, f)}
	}
	if f.Err != nil {
		return nil, f.Err
	}
	return r, nil
}

// lifecycleCall is the step of an event without a tool, from the fields
// Claude Code, Codex and Gemini CLI name alike.
func lifecycleCall(c agent.Common, k agent.Kind, f *agent.Fields) agent.Call {
	switch k {
	case agent.Prompt:
		return c.PromptCall(f.Str("prompt"))
	case agent.Stop:
		return c.StopCall(event.StatusCompleted, f.Bool("stop_hook_active"), true)
	case agent.SubagentStop:
		return c.SubagentStopCall(f.Str("agent_id"), f.Str("agent_type"), f.Str("last_assistant_message"),
			f.Str("agent_transcript_path"), f.Bool("stop_hook_active"), true)
	case agent.SessionStart:
		return c.SessionStartCall(f.Str("source"))
	case agent.SessionEnd:
		return c.SessionEndCall(f.Str("reason"))
	}
	return c.CompactCall(f.Str("trigger"))
}

// ToolEvent fills in a Claude-shaped tool event (Claude Code, Codex): the
// steps before the tool, after it (tool_response, duration_ms), or after
// it failed (error, is_interrupt).
func ToolEvent(c agent.Common, f *agent.Fields, r *agent.Request, t *agent.ToolCall) {
	if f.Err != nil {
		return
	}
	r.ToolUse = t
	switch r.Kind {
	case agent.Tool:
		r.Calls = c.PreCalls(t)
	case agent.PostTool:
		resp := f.Raw("tool_response")
		r.Calls = c.PostCalls(t, resp, agent.ResultText(resp), f.Number("duration_ms"))
	default:
		r.Calls = []agent.Call{c.FailureCall(t, f.Str("error"), f.Bool("is_interrupt"), f.Number("duration_ms"))}
	}
}

// claudeTool reads tool_name, tool_input and tool_use_id, as Claude Code
// and Codex send them. Their input keys are already Cursor's (file_path,
// command), so the hooks get them as sent; tools maps the agent's tool
// names to Cursor's.
func ToolOf(c agent.Common, f *agent.Fields, tools map[string]agent.ToolSpec) *agent.ToolCall {
	name := f.Need("tool_name")
	agentInput := f.NeedObj("tool_input")
	useID := f.Str("tool_use_id")
	if server, tool, ok := agent.SplitMCP(name); ok {
		return agent.MCPToolCall(name, useID, server, tool, agentInput, agent.Clone(agentInput))
	}
	return c.Describe(name, agent.SpecOf(tools, name), useID, agentInput, agent.Clone(agentInput))
}

func answerClaude(r *agent.Request, v *agent.Verdict, o agent.Options) agent.Answer {
	return AnswerShaped(r, v, func(hso map[string]any) {
		agent.Decide(hso, "permissionDecision", "permissionDecisionReason", v, o)
		// Without a decision an updatedInput is still applied, and
		// Claude's own permission rules judge the rewritten input.
		if in := r.Rewrite(v); in != nil {
			hso["updatedInput"] = in
		}
	})
}

// answerClaudeShape builds an answer in Claude's output shape, which Codex
// shares: everything but the tool decision, which each agent words its own
// way (toolDecision fills hookSpecificOutput for Tool events).
func AnswerShaped(r *agent.Request, v *agent.Verdict, toolDecision func(hso map[string]any)) agent.Answer {
	out := map[string]any{}
	hso := map[string]any{"hookEventName": r.Event}
	switch r.Kind {
	case agent.Tool:
		toolDecision(hso)
	case agent.PostTool:
		if v.Context != "" {
			hso["additionalContext"] = v.Context
		}
		if len(v.UpdatedToolOutput) > 0 && r.ToolUse != nil && r.ToolUse.Kind == agent.KindMCP {
			hso["updatedMCPToolOutput"] = v.UpdatedToolOutput
		}
	case agent.Prompt:
		if v.PromptBlocked {
			out["decision"] = "block"
			out["reason"] = agent.OrElse(v.PromptMessage, "Submission blocked by hook")
		}
	case agent.Stop, agent.SubagentStop:
		if v.Followup != "" {
			out["decision"] = "block"
			out["reason"] = v.Followup
		}
	case agent.SessionStart:
		if v.Context != "" {
			hso["additionalContext"] = v.Context
		}
	case agent.Compact:
		if v.Notice != "" {
			out["systemMessage"] = v.Notice
		}
	}
	if len(hso) > 1 {
		out["hookSpecificOutput"] = hso
	}
	a := agent.Answer{Env: sessionEnv(r, v)}
	if len(out) > 0 {
		a.Stdout = agent.JSONLine(out)
	}
	return a
}

// sessionEnv is the env a sessionStart set, for the agent's env file.
func sessionEnv(r *agent.Request, v *agent.Verdict) map[string]string {
	if r.Kind != agent.SessionStart || len(v.Env) == 0 {
		return nil
	}
	return v.Env
}
