package dialect

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// The Cursor tool names preToolUse and postToolUse matchers test (Cursor's
// hooks documentation, "Matcher Configuration"; docs/semantics.md), and the
// ones agents add that Cursor leaves unnamed.
const (
	toolShell = "Shell"
	toolRead  = "Read"
	toolWrite = "Write"
	toolGrep  = "Grep"
	toolGlob  = "Glob"
	toolTask  = "Task"
	toolMCP   = "MCP:"
)

// kind is what a tool does, which decides the steps besides preToolUse.
type kind int

const (
	kindOther kind = iota
	kindShell      // + beforeShellExecution / afterShellExecution
	kindRead       // + beforeReadFile
	kindWrite      // + afterFileEdit
	kindMCP        // + beforeMCPExecution / afterMCPExecution
	kindTask       // + subagentStart
)

// toolCall is an agent's tool call in neutral terms: what the hooks are
// told, and how to say a rewrite back in the agent's terms.
type toolCall struct {
	// agentName is the agent's own tool name; name the Cursor one.
	agentName string
	name      string
	kind      kind
	useID     string
	// input is the agent's tool input as the hooks see it (keys already
	// translated); agentInput the input exactly as the agent sent it.
	input      map[string]any
	agentInput map[string]any
	// added are keys agenthooks put into input (working_directory), which
	// must not flow back to the agent in a rewrite.
	added map[string]bool
	// back translates a hook's key back to the agent's; nil keeps keys.
	back func(string) string

	command  string // shell
	filePath string // read, write (absolute when the cwd is known)
	content  *string
	edits    []event.FileEdit // write, after the edit
	// pathKeys are the input keys that may hold the path, for rechecking
	// a rewritten read.
	pathKeys []string

	mcpServer, mcpTool string

	subagentType, task string
}

// common holds the input fields every step of one agent event shares.
type common struct {
	conversation string
	generation   string
	model        string
	transcript   string
	cwd          string
}

// base returns a payload with the common fields the agent gave; the engine
// fills in the rest.
func (c common) base(fields map[string]any) map[string]any {
	if c.conversation != "" {
		fields["conversation_id"] = c.conversation
	}
	if c.generation != "" {
		fields["generation_id"] = c.generation
	}
	if c.model != "" {
		fields["model"] = c.model
	}
	if c.transcript != "" {
		fields["transcript_path"] = c.transcript
	}
	return fields
}

// abs makes a path from a tool input absolute against the agent's cwd:
// Cursor's file steps always carry absolute paths.
func (c common) abs(p string) string {
	if p == "" || filepath.IsAbs(p) || c.cwd == "" {
		return p
	}
	return filepath.Join(c.cwd, p)
}

// shellTool describes a shell command.
func (c common) shellTool(agentName, useID, command string, agentInput, input map[string]any) *toolCall {
	t := &toolCall{agentName: agentName, name: toolShell, kind: kindShell, useID: useID,
		agentInput: agentInput, input: input, command: command, added: map[string]bool{}}
	// Cursor's Shell tool_input is {command, working_directory}.
	if _, ok := input["working_directory"]; !ok && c.cwd != "" {
		input["working_directory"] = c.cwd
		t.added["working_directory"] = true
	}
	return t
}

// mcpTool describes an MCP tool call.
func mcpTool(agentName, useID, server, tool string, agentInput, input map[string]any) *toolCall {
	return &toolCall{agentName: agentName, name: toolMCP + tool, kind: kindMCP, useID: useID,
		agentInput: agentInput, input: input, mcpServer: server, mcpTool: tool}
}

// preCalls are the steps before a tool runs: preToolUse, and the specific
// gate of shell commands, file reads, MCP calls and subagents.
func (c common) preCalls(t *toolCall) []Call {
	calls := []Call{{Step: event.PreToolUse, Payload: c.base(map[string]any{
		"tool_name":   t.name,
		"tool_input":  t.input,
		"tool_use_id": t.useID,
		"cwd":         c.cwd,
	})}}
	if extra, ok := c.gateCall(t, t.command, t.filePath); ok {
		calls = append(calls, extra)
	}
	if t.kind == kindTask {
		calls = append(calls, Call{Step: event.SubagentStart, Payload: c.base(map[string]any{
			"subagent_id":            t.useID,
			"subagent_type":          t.subagentType,
			"task":                   t.task,
			"parent_conversation_id": c.conversation,
			"tool_call_id":           t.useID,
			"subagent_model":         "",
			"is_parallel_worker":     false,
		})})
	}
	return calls
}

// gateCall is the specific gate of a tool, for a command or path that may
// be a rewritten one.
func (c common) gateCall(t *toolCall, command, path string) (Call, bool) {
	switch t.kind {
	case kindShell:
		return Call{Step: event.BeforeShellExecution, Payload: c.base(map[string]any{
			"command": command,
			"cwd":     c.cwd,
			"sandbox": false,
		})}, true
	case kindRead:
		if path == "" {
			return Call{}, false
		}
		p := c.base(map[string]any{
			"file_path":   path,
			"attachments": []any{},
		})
		if t.content != nil && path == t.filePath {
			p["content"] = *t.content
		}
		return Call{Step: event.BeforeReadFile, Payload: p}, true
	case kindMCP:
		return Call{Step: event.BeforeMCPExecution, Payload: c.base(map[string]any{
			"tool_name":  t.mcpTool,
			"tool_input": compact(t.agentInput),
			// Not in Cursor's schema: the server's name, which is all an
			// agent's payload says about it (Cursor sends url or command).
			"server": t.mcpServer,
		})}, true
	}
	return Call{}, false
}

// postCalls are the steps after a tool ran: postToolUse, and the shell,
// edit and MCP after-steps. output is the tool's result as the agent gave
// it (JSON), shellOutput the terminal text of a shell command.
func (c common) postCalls(t *toolCall, output json.RawMessage, shellOutput string, durationMS float64) []Call {
	result := compactRaw(output)
	calls := []Call{{Step: event.PostToolUse, Payload: c.base(map[string]any{
		"tool_name":   t.name,
		"tool_input":  t.input,
		"tool_output": result,
		"tool_use_id": t.useID,
		"cwd":         c.cwd,
		"duration":    durationMS,
	})}}
	switch t.kind {
	case kindShell:
		calls = append(calls, Call{Step: event.AfterShellExecution, Payload: c.base(map[string]any{
			"command":  t.command,
			"output":   shellOutput,
			"duration": durationMS,
			"sandbox":  false,
			"cwd":      c.cwd,
		})})
	case kindWrite:
		if t.filePath != "" {
			edits := t.edits
			if edits == nil {
				edits = []event.FileEdit{}
			}
			calls = append(calls, Call{Step: event.AfterFileEdit, Payload: c.base(map[string]any{
				"file_path": t.filePath,
				"edits":     edits,
			})})
		}
	case kindMCP:
		calls = append(calls, Call{Step: event.AfterMCPExecution, Payload: c.base(map[string]any{
			"tool_name":   t.mcpTool,
			"tool_input":  compact(t.agentInput),
			"result_json": result,
			"duration":    durationMS,
			"server":      t.mcpServer,
		})})
	}
	return calls
}

// failureCall is postToolUseFailure.
func (c common) failureCall(t *toolCall, message string, interrupt bool, durationMS float64) Call {
	// Agents do not say why a tool failed beyond the message; an
	// interrupt is an error with is_interrupt set, as in Cursor.
	return Call{Step: event.PostToolUseFailure, Payload: c.base(map[string]any{
		"tool_name":     t.name,
		"tool_input":    t.input,
		"tool_use_id":   t.useID,
		"cwd":           c.cwd,
		"error_message": message,
		"failure_type":  event.FailureError,
		"duration":      durationMS,
		"is_interrupt":  interrupt,
	})}
}

// promptCall is beforeSubmitPrompt.
func (c common) promptCall(prompt string) Call {
	return Call{Step: event.BeforeSubmitPrompt, Payload: c.base(map[string]any{
		"prompt":      prompt,
		"attachments": []any{},
	})}
}

// stopCall is stop. active is the agent's stop_hook_active: when false this
// stop does not follow a hook's follow-up, so the chain of follow-ups
// starts over (loop_count 0); when true, or when the agent does not say
// (known false), the engine's own count of follow-ups in a row stands.
func (c common) stopCall(status string, active, known bool) Call {
	p := c.base(map[string]any{"status": status})
	if known && !active {
		p["loop_count"] = 0
	}
	return Call{Step: event.Stop, Payload: p}
}

// subagentStopCall is subagentStop.
func (c common) subagentStopCall(id, typ, summary, transcript string, active, known bool) Call {
	p := c.base(map[string]any{
		"subagent_type":  typ,
		"status":         event.StatusCompleted,
		"task":           "",
		"description":    "",
		"summary":        summary,
		"modified_files": []string{},
	})
	if id != "" {
		p["subagent_id"] = id
	}
	if transcript != "" {
		p["agent_transcript_path"] = transcript
	} else {
		p["agent_transcript_path"] = nil
	}
	if known && !active {
		p["loop_count"] = 0
	}
	return Call{Step: event.SubagentStop, Payload: p}
}

// sessionStartCall is sessionStart; source is the agent's reason
// (startup, resume, …), passed on beside Cursor's fields.
func (c common) sessionStartCall(source string) Call {
	p := c.base(map[string]any{
		"session_id":          c.conversation,
		"is_background_agent": false,
		"composer_mode":       "agent",
	})
	if source != "" {
		p["source"] = source
	}
	return Call{Step: event.SessionStart, Payload: p}
}

// sessionEndCall is sessionEnd. Agents give their own reasons; Cursor's
// reason is one of five words, so the agent's goes into final_status.
func (c common) sessionEndCall(agentReason string) Call {
	reason := event.StatusCompleted
	switch strings.ToLower(agentReason) {
	case "clear", "logout", "prompt_input_exit", "exit", "user_exit", "abort":
		reason = event.ReasonUserClose
	case "error", "timeout":
		reason = event.StatusError
	}
	return Call{Step: event.SessionEnd, Payload: c.base(map[string]any{
		"session_id":          c.conversation,
		"reason":              reason,
		"duration_ms":         0,
		"is_background_agent": false,
		"final_status":        agentReason,
	})}
}

// compactCall is preCompact.
func (c common) compactCall(trigger string) Call {
	if trigger != event.TriggerManual {
		trigger = event.TriggerAuto
	}
	return Call{Step: event.PreCompact, Payload: c.base(map[string]any{
		"trigger":               trigger,
		"context_usage_percent": 0,
		"context_tokens":        0,
		"context_window_size":   0,
		"message_count":         0,
		"messages_to_compact":   0,
		"is_first_compaction":   false,
	})}
}

// compact encodes a tool input as the JSON string Cursor's MCP steps carry.
func compact(m map[string]any) string {
	b, err := encode(m)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// compactRaw is a tool result as the JSON string Cursor's after-steps
// carry: a string result is kept as it is, anything else encoded.
func compactRaw(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	v, err := jsonscan.Decode(raw)
	if err != nil {
		return string(raw)
	}
	b, err := encode(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// resultText is the text of a tool's result for afterShellExecution's
// output: a string as it is; an object's stdout and stderr, or its
// llmContent/output/text, else the whole object encoded.
func resultText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	v, err := jsonscan.Decode(raw)
	if s, ok := v.(string); ok && err == nil {
		return s
	}
	if m, ok := jsonscan.AsObject(v); ok {
		out, errOut := str(m, "stdout"), str(m, "stderr")
		switch {
		case out != "" && errOut != "":
			return out + "\n" + errOut
		case out != "" || errOut != "":
			return out + errOut
		}
		if t := str(m, "output", "llmContent", "textResultForLlm", "text_result_for_llm", "returnDisplay"); t != "" {
			return t
		}
	}
	return string(raw)
}

// clone copies a decoded tool input, so the hooks' copy can be changed
// without touching the agent's.
func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// role is how a tool's input is read, whatever the agent calls the tool.
type role int

const (
	roleOther role = iota
	roleShell      // {command}
	roleRead       // {file_path}
	roleWrite      // {file_path, content}: the whole file
	roleEdit       // {file_path, old_string, new_string} or {edits: [...]}
	roleTask       // {subagent_type, prompt}
)

// toolSpec maps an agent's tool to Cursor's name and a role.
type toolSpec struct {
	name string
	role role
}

// specOf is the spec of an agent's tool; a tool not in the table keeps
// its name.
func specOf(tools map[string]toolSpec, name string) toolSpec {
	if spec, ok := tools[name]; ok {
		return spec
	}
	return toolSpec{name, roleOther}
}

// pathKeys are the input keys agents put a file's path in (after
// camelCase keys are snake_cased).
var pathKeys = []string{"file_path", "path", "absolute_path", "notebook_path"}

// describe builds the neutral description of a tool call from its spec.
func (c common) describe(agentName string, spec toolSpec, useID string, agentInput, input map[string]any) *toolCall {
	if spec.role == roleShell {
		return c.shellTool(agentName, useID, str(input, "command", "cmd"), agentInput, input)
	}
	t := &toolCall{agentName: agentName, name: spec.name, useID: useID, agentInput: agentInput, input: input}
	switch spec.role {
	case roleRead:
		t.kind = kindRead
		t.filePath = c.abs(str(input, pathKeys...))
		t.pathKeys = pathKeys
		if s, ok := input["content"].(string); ok {
			t.content = &s
		}
	case roleWrite:
		t.kind = kindWrite
		t.filePath = c.abs(str(input, pathKeys...))
		t.edits = []event.FileEdit{{NewString: str(input, "content", "contents", "file_text")}}
	case roleEdit:
		t.kind = kindWrite
		t.filePath = c.abs(str(input, pathKeys...))
		t.edits = editsOf(input)
	case roleTask:
		t.kind = kindTask
		t.subagentType = str(input, "subagent_type", "agent_type", "agent")
		t.task = str(input, "prompt", "description", "task")
	}
	return t
}

// editsOf reads the replacements of an edit tool's input: one
// old/new pair, or an edits array of them (Claude's MultiEdit).
func editsOf(input map[string]any) []event.FileEdit {
	one := func(m map[string]any) event.FileEdit {
		return event.FileEdit{
			OldString: str(m, "old_string", "old_str", "oldString"),
			NewString: str(m, "new_string", "new_str", "new_source", "newString"),
		}
	}
	if list, ok := jsonscan.AsArray(input["edits"]); ok {
		edits := make([]event.FileEdit, 0, len(list))
		for _, e := range list {
			if m, ok := jsonscan.AsObject(e); ok {
				edits = append(edits, one(m))
			}
		}
		return edits
	}
	return []event.FileEdit{one(input)}
}

// splitMCP splits Claude's and Codex's MCP tool name, mcp__<server>__<tool>.
// A plugin's server is mcp__plugin_<plugin>_<server>__<tool>; the server
// part keeps its plugin prefix.
func splitMCP(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return "", "", false
	}
	return server, tool, true
}
