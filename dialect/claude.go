package dialect

import (
	"fmt"

	"github.com/agenthooks/agenthooks/event"
)

// Claude is Claude Code's dialect: `agenthooks run --from claude` as a
// command hook in ~/.claude/settings.json (or a project's
// .claude/settings.json) for the events below.
//
// In: the payload of other-agents.md §1.4 (session_id, transcript_path,
// cwd, hook_event_name and the event's fields).
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
	parse:               parseClaude,
	answer:              answerClaude,
}

// claudeTools maps Claude's tool names to Cursor's (seed 004 and Cursor's
// third-party-hooks page: Bash→Shell, Edit→Write, …). Unlisted tools keep
// their name.
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
var claudeEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit",
	"Stop", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact"}

func parseClaude(payload []byte, arg string) (*Request, error) {
	m, err := object("Claude Code", payload)
	if err != nil {
		return nil, err
	}
	f := &fields{m: m, agent: "Claude Code"}
	ev := f.str("hook_event_name")
	if ev == "" {
		ev = arg
	}
	if ev == "" {
		f.fail(fmt.Errorf(`field "hook_event_name" is missing; Claude Code always sends it`))
		return nil, f.err
	}
	f.event = ev
	c := common{
		conversation: f.str("session_id"),
		generation:   f.str("prompt_id"),
		model:        f.str("model"),
		transcript:   f.str("transcript_path"),
		cwd:          f.str("cwd"),
	}
	r := &Request{Event: ev, Cwd: c.cwd}
	switch ev {
	case "PreToolUse", "PostToolUse", "PostToolUseFailure":
		f.gate = ev == "PreToolUse"
		t := claudeTool(c, f)
		if f.err != nil {
			return nil, f.err
		}
		r.tool = t
		switch ev {
		case "PreToolUse":
			r.Kind, r.Calls = Tool, c.preCalls(t)
		case "PostToolUse":
			resp := f.raw("tool_response")
			r.Kind, r.Calls = PostTool, c.postCalls(t, resp, resultText(resp), f.number("duration_ms"))
		default:
			r.Kind = ToolFailure
			r.Calls = []Call{c.failureCall(t, f.str("error"), f.boolean("is_interrupt"), f.number("duration_ms"))}
		}
	case "UserPromptSubmit":
		r.Kind, r.Calls = Prompt, []Call{c.promptCall(f.str("prompt"))}
	case "Stop":
		r.Kind, r.Calls = Stop, []Call{c.stopCall(event.StatusCompleted, f.boolean("stop_hook_active"), true)}
	case "SubagentStop":
		r.Kind = SubagentStop
		r.Calls = []Call{c.subagentStopCall(f.str("agent_id"), f.str("agent_type"), f.str("last_assistant_message"),
			f.str("agent_transcript_path"), f.boolean("stop_hook_active"), true)}
	case "SessionStart":
		r.Kind, r.Calls = SessionStart, []Call{c.sessionStartCall(f.str("source"))}
	case "SessionEnd":
		r.Kind, r.Calls = SessionEnd, []Call{c.sessionEndCall(f.str("reason"))}
	case "PreCompact":
		r.Kind, r.Calls = Compact, []Call{c.compactCall(f.str("trigger"))}
	default:
		return none(ev, fmt.Sprintf("Claude Code event %q has no Cursor counterpart; no hooks ran (mapped: %s)", ev, eventList(claudeEvents))), nil
	}
	if f.err != nil {
		return nil, f.err
	}
	return r, nil
}

// claudeTool reads tool_name and tool_input. Claude's input keys are
// already Cursor's (file_path, command), so the hooks get them as sent.
func claudeTool(c common, f *fields) *toolCall {
	name := f.need("tool_name")
	agentInput := f.needObj("tool_input")
	useID := f.str("tool_use_id")
	if server, tool, ok := splitMCP(name); ok {
		return mcpTool(name, useID, server, tool, agentInput, clone(agentInput))
	}
	spec, ok := claudeTools[name]
	if !ok {
		spec = toolSpec{name, roleOther}
	}
	return c.describe(name, spec, useID, agentInput, clone(agentInput))
}

func answerClaude(r *Request, v *Verdict, o Options) Answer {
	return answerClaudeShape(r, v, func(hso map[string]any) {
		switch v.Permission {
		case event.Deny:
			hso["permissionDecision"] = "deny"
			hso["permissionDecisionReason"] = v.Reason
		case event.Ask:
			hso["permissionDecision"] = "ask"
			hso["permissionDecisionReason"] = orElse(v.UserMessage, "A hook asks for confirmation.")
		case event.Allow:
			if o.Approve {
				hso["permissionDecision"] = "allow"
				if v.UserMessage != "" {
					hso["permissionDecisionReason"] = v.UserMessage
				}
			}
		}
		// Without a decision an updatedInput is still applied, and
		// Claude's own permission rules judge the rewritten input.
		if in := r.AgentInput(v.UpdatedInput); in != nil && v.Permission != event.Deny {
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
