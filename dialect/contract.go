package dialect

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/event"
)

// Contract is the cross-agent hook contract (docs/dialects.md), for
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
var Contract = &Dialect{
	Name:   "contract",
	Title:  "the hook contract",
	parse:  parseContract,
	answer: answerContract,
	fail: func(msg string, _ bool) Answer {
		return Answer{Stdout: jsonLine(map[string]any{"decision": "allow"}), Stderr: msg, Code: 0}
	},
}

// contractTools maps the contract's tool names to Cursor's.
var contractTools = map[string]toolSpec{
	"Shell":     {toolShell, roleShell},
	"Bash":      {toolShell, roleShell},
	"Read":      {toolRead, roleRead},
	"Write":     {toolWrite, roleOther},
	"Edit":      {toolWrite, roleOther},
	"MultiEdit": {toolWrite, roleOther},
	"Grep":      {toolGrep, roleOther},
}

// contractEvents maps the lifecycle names, in any of their spellings.
var contractEvents = map[string]Kind{
	"sessionstart":       SessionStart,
	"beforesubmitprompt": Prompt,
	"userpromptsubmit":   Prompt,
	"stop":               Stop,
	"precompact":         Compact,
	"sessionend":         SessionEnd,
}

func parseContract(payload []byte, arg string) (*Request, error) {
	m, err := object("the hook contract", payload)
	if err != nil {
		return nil, err
	}
	f := &fields{m: m, agent: "the hook contract"}
	name := orElse(f.str("tool_name"), arg)
	if name == "" {
		f.fail(fmt.Errorf(`field "tool_name" is missing; it names the tool (Shell, Read, …) or the event (SessionStart, Stop, …)`))
		return nil, f.err
	}
	f.event = name
	in := f.obj("tool_input")
	if f.err != nil {
		return nil, f.err
	}
	c := common{
		conversation: orElse(str(in, "session_id", "conversation_id"), f.str("session_id")),
		transcript:   str(in, "transcript_path"),
		cwd:          orElse(str(in, "cwd", "working_directory"), f.str("cwd")),
	}
	r := &Request{Event: name, Cwd: c.cwd, shared: c}
	if k, ok := contractEvents[strings.ToLower(name)]; ok {
		r.Kind = k
		switch k {
		case SessionStart:
			r.Calls = []Call{c.sessionStartCall(str(in, "source"))}
		case Prompt:
			r.Calls = []Call{c.promptCall(str(in, "prompt"))}
		case Stop:
			active, known := in["stop_hook_active"].(bool)
			r.Calls = []Call{c.stopCall(event.StatusCompleted, active, known)}
		case Compact:
			r.Calls = []Call{c.compactCall(str(in, "trigger"))}
		case SessionEnd:
			r.Calls = []Call{c.sessionEndCall(str(in, "reason"))}
		}
		return r, f.err
	}
	f.gate = true
	spec := specOf(contractTools, name)
	t := c.describe(name, spec, "", in, clone(in))
	if t.kind == kindShell && t.command == "" {
		f.fail(fmt.Errorf(`field "tool_input.command" is missing or empty`))
		return nil, f.err
	}
	r.Kind, r.tool, r.Calls = Tool, t, c.preCalls(t)
	return r, nil
}

func answerContract(r *Request, v *Verdict, o Options) Answer {
	deny := func(reason string) Answer {
		return Answer{Stdout: jsonLine(map[string]any{"decision": "deny", "reason": reason}), Stderr: reason, Code: 2}
	}
	out := map[string]any{}
	switch r.Kind {
	case Tool:
		switch v.Permission {
		case event.Deny:
			return deny(v.Reason)
		case event.Ask:
			return deny(askAsDeny("the hook contract", v))
		}
		if in := r.AgentInput(v.UpdatedInput); in != nil {
			b, _ := encode(in)
			return deny("A hook rewrote this tool call, and the hook contract cannot pass a rewritten input on, so the original was not run. The rewritten input is: " + string(b))
		}
		if v.Permission == event.Allow && o.Approve {
			out["decision"] = "allow"
		}
	case Prompt:
		if v.PromptBlocked {
			return deny(orElse(v.PromptMessage, "Submission blocked by hook"))
		}
	case Stop:
		if v.Followup != "" {
			out["reason"] = v.Followup
		}
	case SessionStart:
		if v.Context != "" {
			out["message"] = v.Context
		}
	case Compact:
		if v.Notice != "" {
			out["message"] = v.Notice
		}
	}
	return Answer{Stdout: jsonLine(out)}
}
