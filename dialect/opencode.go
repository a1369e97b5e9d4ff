package dialect

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// OpenCode is the dialect of OpenCode's plugin hooks. OpenCode runs hooks
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
// OpenCode's. MCP tools (<server>_<tool>) cannot be told apart from other
// tools by name and keep it.
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
var OpenCode = &Dialect{
	Name:   "opencode",
	Title:  "OpenCode",
	parse:  parseOpenCode,
	answer: answerOpenCode,
	fail: func(msg string, gating bool) Answer {
		if gating {
			return Answer{Stdout: jsonLine(map[string]any{"error": msg}), Stderr: msg, Code: 2}
		}
		return Answer{Stderr: msg, Code: 1}
	},
}

// opencodeTools maps OpenCode's tool ids to Cursor's names.
var opencodeTools = map[string]toolSpec{
	"bash":      {toolShell, roleShell},
	"read":      {toolRead, roleRead},
	"write":     {toolWrite, roleWrite},
	"edit":      {toolWrite, roleEdit},
	"multiedit": {toolWrite, roleEdit},
	"patch":     {toolWrite, roleOther},
	"grep":      {toolGrep, roleOther},
	"glob":      {toolGlob, roleOther},
	"list":      {"LS", roleOther},
	"webfetch":  {"WebFetch", roleOther},
	"task":      {toolTask, roleTask},
	"todowrite": {"TodoWrite", roleOther},
	"todoread":  {"TodoRead", roleOther},
}

// opencodeGates are the hooks whose failure blocks in OpenCode.
var opencodeGates = map[string]bool{"tool.execute.before": true, "chat.message": true}

var opencodeEvents = []string{"tool.execute.before", "tool.execute.after", "chat.message",
	"session.created", "session.idle", "session.deleted"}

func parseOpenCode(payload []byte, arg string) (*Request, error) {
	m, err := object("OpenCode", payload)
	if err != nil {
		// The adapter names the hook on the command line too, so even a
		// payload that cannot be read is known to be a gate.
		if pe, ok := err.(*ParseError); ok && opencodeGates[arg] {
			pe.Event, pe.Gating = arg, true
		}
		return nil, err
	}
	f := &fields{m: m, agent: "OpenCode"}
	ev := orElse(f.str("hook"), arg)
	busEvent := f.obj("event")
	if ev == "event" || (ev == "" && len(busEvent) > 0) {
		ev = str(busEvent, "type")
	}
	if ev == "" {
		f.fail(fmt.Errorf(`field "hook" is missing; the adapter sends the OpenCode hook's name there`))
		return nil, f.err
	}
	f.event = ev
	f.gate = opencodeGates[ev]
	input, output := f.obj("input"), f.obj("output")
	props, _ := jsonscan.AsObject(busEvent["properties"])
	info, _ := jsonscan.AsObject(props["info"])
	c := common{
		conversation: orElse(str(input, "sessionID"), orElse(str(props, "sessionID"), str(info, "id"))),
		cwd:          f.str("directory"),
	}
	r := &Request{Event: ev, Cwd: c.cwd, shared: c}
	switch ev {
	case "tool.execute.before", "tool.execute.after":
		name := str(input, "tool")
		if name == "" {
			f.fail(fmt.Errorf(`field "input.tool" is missing or empty; OpenCode passes the tool id there`))
			return nil, f.err
		}
		args, _ := jsonscan.AsObject(output["args"])
		if ev == "tool.execute.after" {
			args, _ = jsonscan.AsObject(input["args"])
		}
		if args == nil {
			args = map[string]any{}
		}
		t := opencodeTool(c, name, str(input, "callID"), args)
		r.tool = t
		if ev == "tool.execute.before" {
			r.Kind, r.Calls = Tool, c.preCalls(t)
			break
		}
		text := str(output, "output")
		out, _ := encode(text)
		r.Kind, r.Calls = PostTool, c.postCalls(t, out, text, 0)
	case "chat.message":
		r.Kind, r.Calls = Prompt, []Call{c.promptCall(messageText(output))}
	case "session.created":
		r.Kind, r.Calls = SessionStart, []Call{c.sessionStartCall("startup")}
	case "session.idle":
		r.Kind, r.Calls = Stop, []Call{c.stopCall(event.StatusCompleted, false, false)}
	case "session.deleted":
		r.Kind, r.Calls = SessionEnd, []Call{c.sessionEndCall("user_exit")}
	default:
		return none(ev, fmt.Sprintf("OpenCode hook %q has no Cursor counterpart; no hooks ran (mapped: %s)", ev, eventList(opencodeEvents))), nil
	}
	if f.err != nil {
		return nil, f.err
	}
	return r, nil
}

// opencodeTool describes a tool call, with the arguments' camelCase keys
// snake_cased for the hooks and mapped back for a rewrite.
func opencodeTool(c common, name, useID string, args map[string]any) *toolCall {
	input := make(map[string]any, len(args))
	back := map[string]string{}
	for k, v := range args {
		s := SnakeCase(k)
		input[s] = v
		back[s] = k
	}
	spec := specOf(opencodeTools, name)
	t := c.describe(name, spec, useID, args, input)
	t.back = func(k string) string {
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
		if m, ok := jsonscan.AsObject(p); ok && str(m, "type") == "text" {
			texts = append(texts, str(m, "text"))
		}
	}
	return strings.Join(texts, "\n")
}

// SnakeCase turns filePath into file_path, and PreToolUse into
// pre_tool_use: how OpenCode's tool arguments and Codex's event keys are
// spelt.
func SnakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
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

func answerOpenCode(r *Request, v *Verdict, _ Options) Answer {
	block := func(reason string) Answer {
		return Answer{Stdout: jsonLine(map[string]any{"error": reason}), Stderr: reason, Code: 2}
	}
	out := map[string]any{}
	switch r.Kind {
	case Tool:
		switch v.Permission {
		case event.Deny:
			return block(v.Reason)
		case event.Ask:
			return block(askAsDeny("OpenCode hooks", v))
		}
		if in := r.AgentInput(v.UpdatedInput); in != nil {
			out["args"] = in
		}
	case Prompt:
		if v.PromptBlocked {
			return block(orElse(v.PromptMessage, "Submission blocked by hook"))
		}
	case PostTool, SessionStart:
		if v.Context != "" {
			out["context"] = v.Context
		}
	case Stop:
		if v.Followup != "" {
			out["followup"] = v.Followup
		}
	}
	if len(out) == 0 {
		return Answer{}
	}
	return Answer{Stdout: jsonLine(out)}
}
