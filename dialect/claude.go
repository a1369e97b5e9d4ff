package dialect

import (
	"fmt"
	"maps"
	"slices"

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
var Claude = &Dialect{
	Name:           "claude",
	Title:          "Claude Code",
	EnvFileVars:    []string{"CLAUDE_ENV_FILE"},
	ProjectDirVars: []string{"CLAUDE_PROJECT_DIR"},
	// Claude Code runs its own settings files' hooks.
	ReadsClaudeSettings: true,
	parse:               claudeShaped.parse,
	answer:              answerClaude,
}

// claudeTools maps Claude's tool names to Cursor's (Cursor's hooks
// documentation and its third-party-hooks page: Bash→Shell, Edit→Write, …;
// docs/dialects.md, Events). Unlisted tools keep their name.
var claudeTools = map[string]toolSpec{
	"Bash":         {toolShell, roleShell},
	"Read":         {toolRead, roleRead},
	"Write":        {toolWrite, roleWrite},
	"Edit":         {toolWrite, roleEdit},
	"MultiEdit":    {toolWrite, roleEdit},
	"NotebookEdit": {toolWrite, roleEdit},
	"Grep":         {toolGrep, roleOther},
	"Glob":         {toolGlob, roleOther},
	"Task":         {toolTask, roleTask},
	"Agent":        {toolTask, roleTask},
}

// claudeEvents are the Claude events with a Cursor counterpart.
var claudeEvents = map[string]Kind{
	"PreToolUse": Tool, "PostToolUse": PostTool, "PostToolUseFailure": ToolFailure,
	"UserPromptSubmit": Prompt, "Stop": Stop, "SubagentStop": SubagentStop,
	"SessionStart": SessionStart, "SessionEnd": SessionEnd, "PreCompact": Compact,
}

// claudeShape is Claude Code's payload shape, which Codex and Gemini CLI
// share: hook_event_name, session_id, transcript_path, cwd and the event's
// fields beside them.
type claudeShape struct {
	agent string
	// generation is the key of the turn's id, "" when the agent sends
	// none; model reports that the payload names the model.
	generation string
	model      bool
	// events maps the agent's events with a Cursor counterpart to their
	// kind.
	events map[string]Kind
	// tool fills in r.tool and r.Calls for a tool event (r.Kind Tool,
	// PostTool or ToolFailure; it may change it); a field it cannot read
	// is left in f.err.
	tool func(c common, f *fields, r *Request)
}

var claudeShaped = &claudeShape{agent: "Claude Code", generation: "prompt_id", model: true, events: claudeEvents,
	tool: func(c common, f *fields, r *Request) {
		c.toolEvent(f, r, claudeTool(c, f, claudeTools))
	}}

// parse reads a payload in Claude's shape.
func (s *claudeShape) parse(payload []byte, arg string) (*Request, error) {
	m, err := object(s.agent, payload)
	if err != nil {
		return nil, err
	}
	f := &fields{m: m, agent: s.agent}
	ev := orElse(f.str("hook_event_name"), arg)
	if ev == "" {
		f.fail(fmt.Errorf(`field "hook_event_name" is missing; %s always sends it`, s.agent))
		return nil, f.err
	}
	f.event = ev
	c := common{conversation: f.str("session_id")}
	if s.generation != "" {
		c.generation = f.str(s.generation)
	}
	if s.model {
		c.model = f.str("model")
	}
	c.transcript = f.str("transcript_path")
	c.cwd = f.str("cwd")
	kind, ok := s.events[ev]
	if !ok {
		return none(ev, fmt.Sprintf("%s event %q has no Cursor counterpart; no hooks ran (mapped: %s)",
			s.agent, ev, eventList(slices.Collect(maps.Keys(s.events))))), nil
	}
	r := &Request{Event: ev, Kind: kind, Cwd: c.cwd, shared: c}
	switch kind {
	case Tool, PostTool, ToolFailure:
		f.gate = kind == Tool
		s.tool(c, f, r)
	default:
		r.Calls = []Call{c.lifecycleCall(kind, f)}
	}
	if f.err != nil {
		return nil, f.err
	}
	return r, nil
}

// lifecycleCall is the step of an event without a tool, from the fields
// Claude Code, Codex and Gemini CLI name alike.
func (c common) lifecycleCall(k Kind, f *fields) Call {
	switch k {
	case Prompt:
		return c.promptCall(f.str("prompt"))
	case Stop:
		return c.stopCall(event.StatusCompleted, f.boolean("stop_hook_active"), true)
	case SubagentStop:
		return c.subagentStopCall(f.str("agent_id"), f.str("agent_type"), f.str("last_assistant_message"),
			f.str("agent_transcript_path"), f.boolean("stop_hook_active"), true)
	case SessionStart:
		return c.sessionStartCall(f.str("source"))
	case SessionEnd:
		return c.sessionEndCall(f.str("reason"))
	}
	return c.compactCall(f.str("trigger"))
}

// toolEvent fills in a Claude-shaped tool event (Claude Code, Codex): the
// steps before the tool, after it (tool_response, duration_ms), or after
// it failed (error, is_interrupt).
func (c common) toolEvent(f *fields, r *Request, t *toolCall) {
	if f.err != nil {
		return
	}
	r.tool = t
	switch r.Kind {
	case Tool:
		r.Calls = c.preCalls(t)
	case PostTool:
		resp := f.raw("tool_response")
		r.Calls = c.postCalls(t, resp, resultText(resp), f.number("duration_ms"))
	default:
		r.Calls = []Call{c.failureCall(t, f.str("error"), f.boolean("is_interrupt"), f.number("duration_ms"))}
	}
}

// claudeTool reads tool_name, tool_input and tool_use_id, as Claude Code
// and Codex send them. Their input keys are already Cursor's (file_path,
// command), so the hooks get them as sent; tools maps the agent's tool
// names to Cursor's.
func claudeTool(c common, f *fields, tools map[string]toolSpec) *toolCall {
	name := f.need("tool_name")
	agentInput := f.needObj("tool_input")
	useID := f.str("tool_use_id")
	if server, tool, ok := splitMCP(name); ok {
		return mcpTool(name, useID, server, tool, agentInput, clone(agentInput))
	}
	return c.describe(name, specOf(tools, name), useID, agentInput, clone(agentInput))
}

func answerClaude(r *Request, v *Verdict, o Options) Answer {
	return answerClaudeShape(r, v, func(hso map[string]any) {
		decide(hso, "permissionDecision", "permissionDecisionReason", v, o)
		// Without a decision an updatedInput is still applied, and
		// Claude's own permission rules judge the rewritten input.
		if in := r.rewrite(v); in != nil {
			hso["updatedInput"] = in
		}
	})
}

// answerClaudeShape builds an answer in Claude's output shape, which Codex
// shares: everything but the tool decision, which each agent words its own
// way (toolDecision fills hookSpecificOutput for Tool events).
func answerClaudeShape(r *Request, v *Verdict, toolDecision func(hso map[string]any)) Answer {
	out := map[string]any{}
	hso := map[string]any{"hookEventName": r.Event}
	switch r.Kind {
	case Tool:
		toolDecision(hso)
	case PostTool:
		if v.Context != "" {
			hso["additionalContext"] = v.Context
		}
		if len(v.UpdatedToolOutput) > 0 && r.tool != nil && r.tool.kind == kindMCP {
			hso["updatedMCPToolOutput"] = v.UpdatedToolOutput
		}
	case Prompt:
		if v.PromptBlocked {
			out["decision"] = "block"
			out["reason"] = orElse(v.PromptMessage, "Submission blocked by hook")
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
		a.Stdout = jsonLine(out)
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
