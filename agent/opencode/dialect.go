package opencode

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// Dialect is OpenCode's, for its plugin hooks. OpenCode runs hooks
// in-process (JavaScript functions), so a small adapter plugin (in
// docs/dialects.md) spawns `agenthooks run --from opencode` with the
// hook's arguments as JSON on stdin and acts on the answer.
//
// In: {"hook": NAME, "input": …, "output": …, "directory": DIR}, the
// plugin hook's two arguments as OpenCode passes them, or
// {"hook": "event", "event": {"type": …, "properties": …}} for bus events.
//
//	tool.execute.before  preToolUse, + beforeShellExecution (bash),
//	                     beforeReadFile (read)
//	tool.execute.after   postToolUse, + afterShellExecution, afterFileEdit
//	                     (write, edit, multiedit)
//	chat.message         beforeSubmitPrompt
//	session.created, session.idle, session.deleted (events)
//	                     sessionStart, stop, sessionEnd
//	anything else        no hooks
//
// Tool ids are lowercase (bash, read, write, edit, grep, glob, …) and
// arguments camelCase (filePath, oldString); the hooks see Cursor's names
// (Shell, Read, Write; file_path, old_string), and a rewrite comes back in
// OpenCode's. An MCP tool is <server>_<tool>, told from a custom tool by
// the servers' names the adapter sends ("mcp_servers"), and runs the MCP
// steps; without them it keeps its id, with every split beside it.
//
// Out: a deny (and an ask: OpenCode has none) is {"error": reason} with
// exit 2 and the reason on stderr, for the adapter to throw, which is how
// an OpenCode hook blocks a tool and tells the model why; a rewrite is
// {"args": {…}} to copy into output.args; context is {"context": …}; a
// follow-up when the session goes idle is {"followup": …}. Nothing to say
// is empty stdout and exit 0. An allow cannot approve anything from
// tool.execute.before (OpenCode checks permissions inside the tool), so
// --allow-means=approve changes nothing here.
//
// A payload agenthooks cannot read, for tool.execute.before or
// chat.message, blocks (exit 2): in OpenCode an error in a before-hook
// aborts the call, so that is its convention (fail-closed). For other
// hooks it exits 1, which the adapter logs and ignores.
var Dialect = &agent.Dialect{
	Name:         "opencode",
	GateEvents:   []string{"tool.execute.before"},
	PromptEvents: []string{"chat.message"},
	Title:        "OpenCode",
	ParseFn:      parseOpenCode,
	AnswerFn:     answerOpenCode,
	FailFn: func(msg string, gating bool) agent.Answer {
		if gating {
			return agent.Answer{Stdout: agent.JSONLine(map[string]any{"error": msg}), Stderr: msg, Code: 2}
		}
		return agent.Answer{Stderr: msg, Code: 1}
	},
	// OpenCode's adapter throws on {"error"} with exit 2.
	RefuseFn: func(msg string) agent.Answer {
		return agent.Answer{Stdout: agent.JSONLine(map[string]any{"error": msg}), Stderr: msg, Code: 2}
	},
}

// opencodeTools maps OpenCode's tool ids to Cursor's names.
var opencodeTools = map[string]agent.ToolSpec{
	"bash":      {Name: agent.ToolShell, Role: agent.RoleShell},
	"read":      {Name: agent.ToolRead, Role: agent.RoleRead},
	"write":     {Name: agent.ToolWrite, Role: agent.RoleWrite},
	"edit":      {Name: agent.ToolWrite, Role: agent.RoleEdit},
	"multiedit": {Name: agent.ToolWrite, Role: agent.RoleEdit},
	"patch":     {Name: agent.ToolWrite, Role: agent.RoleOther},
	"grep":      {Name: agent.ToolGrep, Role: agent.RoleOther},
	"glob":      {Name: agent.ToolGlob, Role: agent.RoleOther},
	"list":      {Name: "LS", Role: agent.RoleOther},
	"webfetch":  {Name: "WebFetch", Role: agent.RoleOther},
	"task":      {Name: agent.ToolTask, Role: agent.RoleTask},
	"todowrite": {Name: "TodoWrite", Role: agent.RoleOther},
	"todoread":  {Name: "TodoRead", Role: agent.RoleOther},
}

// opencodeGates are the hooks whose failure blocks in OpenCode.
var opencodeGates = map[string]bool{"tool.execute.before": true, "chat.message": true}

var opencodeEvents = []string{"tool.execute.before", "tool.execute.after", "chat.message",
	"session.created", "session.idle", "session.deleted"}

func parseOpenCode(payload []byte, arg string) (*agent.Request, error) {
	m, err := agent.Object("OpenCode", payload)
	if err != nil {
		// The adapter names the hook on the command line too, so even a
		// payload that cannot be read is known to be a gate.
		if pe, ok := err.(*agent.ParseError); ok && opencodeGates[arg] {
			pe.Event, pe.Gating = arg, true
		}
		return nil, err
	}
	f := &agent.Fields{M: m, Agent: "OpenCode"}
	ev := agent.OrElse(f.Str("hook"), arg)
	busEvent := f.Obj("event")
	if ev == "event" || (ev == "" && len(busEvent) > 0) {
		ev = agent.Str(busEvent, "type")
	}
	if ev == "" {
		f.Fail(fmt.Errorf(`field "hook" is missing; the adapter sends the OpenCode hook's name there`))
		return nil, f.Err
	}
	f.Event = ev
	f.Gate = opencodeGates[ev]
	input, output := f.Obj("input"), f.Obj("output")
	props, _ := jsonscan.AsObject(busEvent["properties"])
	info, _ := jsonscan.AsObject(props["info"])
	c := agent.Common{
		Conversation: agent.OrElse(agent.Str(input, "sessionID"), agent.OrElse(agent.Str(props, "sessionID"), agent.Str(info, "id"))),
		Cwd:          f.Str("directory"),
	}
	r := &agent.Request{Event: ev, Cwd: c.Cwd, Shared: c}
	switch ev {
	case "tool.execute.before", "tool.execute.after":
		name := agent.Str(input, "tool")
		if name == "" {
			f.Fail(fmt.Errorf(`field "input.tool" is missing or empty; OpenCode passes the tool id there`))
			return nil, f.Err
		}
		from, key := output, "output.args"
		if ev == "tool.execute.after" {
			from, key = input, "input.args"
		}
		args, ok := jsonscan.AsObject(from["args"])
		if !ok && from["args"] != nil {
			// Arguments that are there but not an object cannot be judged:
			// for a call about to run, that is a reason to block.
			raw, _ := agent.Encode(from["args"])
			f.Fail(fmt.Errorf("field %q must be a JSON object of the tool's arguments, got %s", key, agent.Clip(raw)))
			return nil, f.Err
		}
		if args == nil {
			args = map[string]any{}
		}
		t := opencodeTool(c, name, agent.Str(input, "callID"), args, mcpServers(f))
		r.ToolUse = t
		if ev == "tool.execute.before" {
			r.Kind, r.Calls = agent.Tool, c.PreCalls(t)
			break
		}
		text := agent.Str(output, "output")
		out, _ := agent.Encode(text)
		r.Kind, r.Calls = agent.PostTool, c.PostCalls(t, out, text, 0)
	case "chat.message":
		r.Kind, r.Calls = agent.Prompt, []agent.Call{c.PromptCall(messageText(output))}
	case "session.created":
		r.Kind, r.Calls = agent.SessionStart, []agent.Call{c.SessionStartCall("startup")}
	case "session.idle":
		r.Kind, r.Calls = agent.Stop, []agent.Call{c.StopCall(event.StatusCompleted, false, false)}
	case "session.deleted":
		r.Kind, r.Calls = agent.SessionEnd, []agent.Call{c.SessionEndCall("user_exit")}
	default:
		return agent.NoneRequest(ev, fmt.Sprintf("OpenCode hook %q has no Cursor counterpart; no hooks ran (mapped: %s)", ev, agent.EventList(opencodeEvents))), nil
	}
	if f.Err != nil {
		return nil, f.Err
	}
	return r, nil
}

// opencodeTool describes a tool call, with the arguments' camelCase keys
// snake_cased for the hooks and mapped back for a rewrite.
func opencodeTool(c agent.Common, name, useID string, args map[string]any, servers []string) *agent.ToolCall {
	input := make(map[string]any, len(args))
	back := map[string]string{}
	for k, v := range args {
		s := agent.SnakeCase(k)
		input[s] = v
		back[s] = k
	}
	var t *agent.ToolCall
	_, builtin := opencodeTools[name]
	switch readings := mcpReadings(name, servers); {
	case len(readings) > 0:
		t = agent.AmbiguousMCPToolCall(name, useID, readings, args, input)
	case servers == nil && !builtin:
		// The adapter did not say which servers OpenCode has (one written
		// before it did): the tool keeps its id, since a custom tool's
		// cannot be told from an MCP tool's, and every way the id splits
		// goes beside it, so a Claude Code matcher on a server's tools
		// sees each reading rather than none.
		t = c.Describe(name, agent.SpecOf(opencodeTools, name), useID, args, input)
		t.MCPReadings = agent.MCPReadings(name, "_", false)
	default:
		t = c.Describe(name, agent.SpecOf(opencodeTools, name), useID, args, input)
	}
	t.Back = func(k string) string {
		if orig, ok := back[k]; ok {
			return orig
		}
		return camel(k)
	}
	return t
}

// messageText is the text of a chat message's parts.
func messageText(output map[string]any) string {
	parts, _ := jsonscan.AsArray(output["parts"])
	var texts []string
	for _, p := range parts {
		if m, ok := jsonscan.AsObject(p); ok && agent.Str(m, "type") == "text" {
			texts = append(texts, agent.Str(m, "text"))
		}
	}
	return strings.Join(texts, "\n")
}

// camel turns file_path into filePath.
func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if p := parts[i]; p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "")
}

func answerOpenCode(r *agent.Request, v *agent.Verdict, _ agent.Options) agent.Answer {
	block := func(reason string) agent.Answer {
		return agent.Answer{Stdout: agent.JSONLine(map[string]any{"error": reason}), Stderr: reason, Code: 2}
	}
	out := map[string]any{}
	switch r.Kind {
	case agent.Tool:
		switch v.Permission {
		case event.Deny:
			return block(v.Reason)
		case event.Ask:
			return block(agent.AskAsDeny("OpenCode hooks", v))
		}
		if in := r.AgentInput(v.UpdatedInput); in != nil {
			out["args"] = in
		}
	case agent.Prompt:
		if v.PromptBlocked {
			return block(agent.OrElse(v.PromptMessage, "Submission blocked by hook"))
		}
	case agent.PostTool, agent.SessionStart:
		if v.Context != "" {
			out["context"] = v.Context
		}
	case agent.Stop:
		if v.Followup != "" {
			out["followup"] = v.Followup
		}
	}
	if len(out) == 0 {
		return agent.Answer{}
	}
	return agent.Answer{Stdout: agent.JSONLine(out)}
}
