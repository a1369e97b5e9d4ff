package contract

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/event"
)

// Dialect is the cross-agent hook contract (docs/dialects.md), for
// wrappers that call one hook binary from several agents:
// `agenthooks run --from contract`.
//
// In: {"tool_name": NAME, "tool_input": {…}}. NAME is a tool (Shell,
// Read, Write, Edit, MultiEdit, Grep, …), which is a gate before the tool
// runs, or a lifecycle event (SessionStart, beforeSubmitPrompt, Stop,
// PreCompact, SessionEnd; Cursor's and Claude's spellings of them are
// accepted too) whose fields are in tool_input.
//
//	Shell (Bash)  preToolUse + beforeShellExecution ({command})
//	Read          preToolUse + beforeReadFile ({path})
//	Write         preToolUse ({path, contents})
//	Edit, MultiEdit  preToolUse, as Write
//	mcp__<server>__<tool>, MCP:<tool>
//	              preToolUse (MCP:<tool>) + beforeMCPExecution
//	other tools   preToolUse with the name as given
//	SessionStart, beforeSubmitPrompt, Stop, PreCompact, SessionEnd
//	              sessionStart, beforeSubmitPrompt, stop, preCompact, sessionEnd
//
// Out: one JSON object on one line. A deny is {"decision":"deny",
// "reason":…} with exit 2 and the reason on stderr; the contract has no
// ask, so an ask is a deny whose reason asks for the user's confirmation;
// an allow is {} ("no objection"), or {"decision":"allow"} with
// --allow-means=approve. The contract cannot carry a rewritten input, so a
// rewrite is refused (deny, with the rewritten input in the reason) rather
// than silently dropped. Lifecycle events carry no decision: a stop
// follow-up is {"reason": …}, session context and compaction notes are
// {"message": …}. A payload that cannot be read is answered
// {"decision":"allow"} with exit 0 and the error on stderr, as the
// contract requires (fail-open).
var Dialect = &agent.Dialect{
	Name: "contract",
	// Cursor's own names of the gates, which a host speaking the
	// contract may give as the event.
	GateEvents:   []string{"preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile"},
	PromptEvents: []string{"beforeSubmitPrompt"},
	Title:        "the hook contract",
	ParseFn:      parseContract,
	AnswerFn:     answerContract,
	FailFn: func(msg string, _ bool) agent.Answer {
		return agent.Answer{Stdout: agent.JSONLine(map[string]any{"decision": "allow"}), Stderr: msg, Code: 0}
	},
	// The contract denies with {"decision":"deny"} and exit 2.
	RefuseFn: func(msg string) agent.Answer {
		return agent.Answer{Stdout: agent.JSONLine(map[string]any{"decision": "deny", "reason": msg}), Stderr: msg, Code: 2}
	},
}

// contractTools maps the contract's tool names to Cursor's.
var contractTools = map[string]agent.ToolSpec{
	"Shell":     {Name: agent.ToolShell, Role: agent.RoleShell},
	"Bash":      {Name: agent.ToolShell, Role: agent.RoleShell},
	"Read":      {Name: agent.ToolRead, Role: agent.RoleRead},
	"Write":     {Name: agent.ToolWrite, Role: agent.RoleOther},
	"Edit":      {Name: agent.ToolWrite, Role: agent.RoleOther},
	"MultiEdit": {Name: agent.ToolWrite, Role: agent.RoleOther},
	"Grep":      {Name: agent.ToolGrep, Role: agent.RoleOther},
}

// contractEvents maps the lifecycle names, in any of their spellings.
var contractEvents = map[string]agent.Kind{
	"sessionstart":       agent.SessionStart,
	"beforesubmitprompt": agent.Prompt,
	"userpromptsubmit":   agent.Prompt,
	"stop":               agent.Stop,
	"precompact":         agent.Compact,
	"sessionend":         agent.SessionEnd,
}

func parseContract(payload []byte, arg string) (*agent.Request, error) {
	m, err := agent.Object("the hook contract", payload)
	if err != nil {
		return nil, err
	}
	f := &agent.Fields{M: m, Agent: "the hook contract"}
	name := agent.OrElse(f.Str("tool_name"), arg)
	if name == "" {
		f.Fail(fmt.Errorf(`field "tool_name" is missing; it names the tool (Shell, Read, …) or the event (SessionStart, Stop, …)`))
		return nil, f.Err
	}
	f.Event = name
	_, lifecycle := contractEvents[strings.ToLower(name)]
	// A tool call gates: its input unreadable is a reason to block.
	f.Gate = !lifecycle
	in := f.Obj("tool_input")
	if f.Err != nil {
		return nil, f.Err
	}
	c := agent.Common{
		Conversation: agent.OrElse(agent.Str(in, "session_id", "conversation_id"), f.Str("session_id")),
		Transcript:   agent.Str(in, "transcript_path"),
		Cwd:          agent.OrElse(agent.Str(in, "cwd", "working_directory"), f.Str("cwd")),
	}
	r := &agent.Request{Event: name, Cwd: c.Cwd, Shared: c}
	if k, ok := contractEvents[strings.ToLower(name)]; ok {
		r.Kind = k
		switch k {
		case agent.SessionStart:
			r.Calls = []agent.Call{c.SessionStartCall(agent.Str(in, "source"))}
		case agent.Prompt:
			r.Calls = []agent.Call{c.PromptCall(agent.Str(in, "prompt"))}
		case agent.Stop:
			active, known := in["stop_hook_active"].(bool)
			r.Calls = []agent.Call{c.StopCall(event.StatusCompleted, active, known)}
		case agent.Compact:
			r.Calls = []agent.Call{c.CompactCall(agent.Str(in, "trigger"))}
		case agent.SessionEnd:
			r.Calls = []agent.Call{c.SessionEndCall(agent.Str(in, "reason"))}
		}
		return r, f.Err
	}
	t := contractToolCall(c, name, in)
	if t.Kind == agent.KindShell && t.Command == "" {
		f.Fail(fmt.Errorf(`field "tool_input.command" is missing or empty`))
		return nil, f.Err
	}
	r.Kind, r.ToolUse, r.Calls = agent.Tool, t, c.PreCalls(t)
	return r, nil
}

func answerContract(r *agent.Request, v *agent.Verdict, o agent.Options) agent.Answer {
	deny := func(reason string) agent.Answer {
		return agent.Answer{Stdout: agent.JSONLine(map[string]any{"decision": "deny", "reason": reason}), Stderr: reason, Code: 2}
	}
	out := map[string]any{}
	switch r.Kind {
	case agent.Tool:
		switch v.Permission {
		case event.Deny:
			return deny(v.Reason)
		case event.Ask:
			return deny(agent.AskAsDeny("the hook contract", v))
		}
		if in := r.AgentInput(v.UpdatedInput); in != nil {
			b, _ := agent.Encode(in)
			return deny("A hook rewrote this tool call, and the hook contract cannot pass a rewritten input on, so the original was not run. The rewritten input is: " + string(b))
		}
		if v.Permission == event.Allow && o.Approve {
			out["decision"] = "allow"
		}
	case agent.Prompt:
		if v.PromptBlocked {
			return deny(agent.OrElse(v.PromptMessage, "Submission blocked by hook"))
		}
	case agent.Stop:
		if v.Followup != "" {
			out["reason"] = v.Followup
		}
	case agent.SessionStart:
		if v.Context != "" {
			out["message"] = v.Context
		}
	case agent.Compact:
		if v.Notice != "" {
			out["message"] = v.Notice
		}
	}
	return agent.Answer{Stdout: agent.JSONLine(out)}
}

// contractToolCall describes a tool call. The contract passes on the calling
// agent's tool name, so an MCP tool comes as Claude Code names it
// (mcp__<server>__<tool>) or as Cursor does (MCP:<tool>, without its
// server): either is an MCP call, past beforeMCPExecution.
func contractToolCall(c agent.Common, name string, in map[string]any) *agent.ToolCall {
	if server, tool, ok := agent.SplitMCP(name); ok {
		return agent.MCPToolCall(name, "", server, tool, in, agent.Clone(in))
	}
	if tool, ok := strings.CutPrefix(name, agent.ToolMCP); ok && tool != "" {
		return agent.MCPToolCall(name, "", "", tool, in, agent.Clone(in))
	}
	return c.Describe(name, agent.SpecOf(contractTools, name), "", in, agent.Clone(in))
}
