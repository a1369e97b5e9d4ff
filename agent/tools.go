package agent

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
	ToolShell = "Shell"
	ToolRead  = "Read"
	ToolWrite = "Write"
	ToolGrep  = "Grep"
	ToolGlob  = "Glob"
	ToolTask  = "Task"
	ToolMCP   = "MCP:"
)

// ToolKind is what a tool does, which decides the steps besides preToolUse.
type ToolKind int

const (
	KindOther ToolKind = iota
	KindShell          // + beforeShellExecution / afterShellExecution
	KindRead           // + beforeReadFile
	KindWrite          // + afterFileEdit
	KindMCP            // + beforeMCPExecution / afterMCPExecution
	KindTask           // + subagentStart
)

// ToolCall is an agent's tool call in neutral terms: what the hooks are
// told, and how to say a rewrite back in the agent's terms.
type ToolCall struct {
	// agentName is the agent's own tool name; name the Cursor one.
	AgentName string
	Name      string
	Kind      ToolKind
	UseID     string
	// input is the agent's tool input as the hooks see it (keys already
	// translated); agentInput the input exactly as the agent sent it.
	Input      map[string]any
	AgentInput map[string]any
	// added are keys agenthooks put into input (working_directory), which
	// must not flow back to the agent in a rewrite.
	Added map[string]bool
	// back translates a hook's key back to the agent's; nil keeps keys.
	Back func(string) string

	Command  string // shell
	FilePath string // read, write (absolute when the cwd is known)
	Content  *string
	Edits    []event.FileEdit // write, after the edit

	MCPServer, MCPTool string
	// MCPReadings are the ways to split an MCP tool's name when the agent
	// does not say where the server's name ends (MCPServer is then ""),
	// or, for a tool that may be an MCP tool, every way its name splits.
	MCPReadings []MCPReading

	SubagentType, Task string
}

// Common holds the input fields every step of one agent event shares.
type Common struct {
	Conversation string
	Generation   string
	Model        string
	Transcript   string
	Cwd          string
}

// Base returns a payload with the common fields the agent gave; the engine
// fills in the rest.
func (c Common) Base(fields map[string]any) map[string]any {
	if c.Conversation != "" {
		fields["conversation_id"] = c.Conversation
	}
	if c.Generation != "" {
		fields["generation_id"] = c.Generation
	}
	if c.Model != "" {
		fields["model"] = c.Model
	}
	if c.Transcript != "" {
		fields["transcript_path"] = c.Transcript
	}
	return fields
}

// Abs makes a path from a tool input absolute against the agent's cwd:
// Cursor's file steps always carry absolute paths.
func (c Common) Abs(p string) string {
	if p == "" || filepath.IsAbs(p) || c.Cwd == "" {
		return p
	}
	return filepath.Join(c.Cwd, p)
}

// ShellTool describes a shell command.
func (c Common) ShellTool(agentName, useID, command string, agentInput, input map[string]any) *ToolCall {
	t := &ToolCall{AgentName: agentName, Name: ToolShell, Kind: KindShell, UseID: useID,
		AgentInput: agentInput, Input: input, Command: command, Added: map[string]bool{}}
	// Cursor's Shell tool_input is {command, working_directory}.
	if _, ok := input["working_directory"]; !ok && c.Cwd != "" {
		input["working_directory"] = c.Cwd
		t.Added["working_directory"] = true
	}
	return t
}

// MCPToolCall describes an MCP tool call.
func MCPToolCall(agentName, useID, server, tool string, agentInput, input map[string]any) *ToolCall {
	return &ToolCall{AgentName: agentName, Name: ToolMCP + tool, Kind: KindMCP, UseID: useID,
		AgentInput: agentInput, Input: input, MCPServer: server, MCPTool: tool}
}

// PreCalls are the steps before a tool runs: preToolUse, and the specific
// gate of shell commands, file reads, MCP calls and subagents.
func (c Common) PreCalls(t *ToolCall) []Call {
	calls := []Call{c.preToolUseCall(t, t.Input)}
	if extra, ok := c.GateCall(t, t.Command, t.FilePath); ok {
		calls = append(calls, extra)
	}
	if t.Kind == KindTask {
		calls = append(calls, c.subagentStartCall(t, t.SubagentType, t.Task))
	}
	return calls
}

// preToolUseCall is the preToolUse of tool t with input.
func (c Common) preToolUseCall(t *ToolCall, input map[string]any) Call {
	return Call{Step: event.PreToolUse, Payload: c.Base(withServer(t, map[string]any{
		"tool_name":   t.Name,
		"tool_input":  input,
		"tool_use_id": t.UseID,
		"cwd":         c.Cwd,
	}))}
}

// subagentStartCall is the subagentStart of task tool t, for a subagent
// of kind typ given task.
func (c Common) subagentStartCall(t *ToolCall, typ, task string) Call {
	return Call{Step: event.SubagentStart, Payload: c.Base(map[string]any{
		"subagent_id":            t.UseID,
		"subagent_type":          typ,
		"task":                   task,
		"parent_conversation_id": c.Conversation,
		"tool_call_id":           t.UseID,
		"subagent_model":         "",
		"is_parallel_worker":     false,
	})}
}

// GateCall is the specific gate of a tool, for a command or path that may
// be a rewritten one.
func (c Common) GateCall(t *ToolCall, command, path string) (Call, bool) {
	switch t.Kind {
	case KindShell:
		return Call{Step: event.BeforeShellExecution, Payload: c.Base(map[string]any{
			"command": command,
			"cwd":     c.Cwd,
			"sandbox": false,
		})}, true
	case KindRead:
		if path == "" {
			return Call{}, false
		}
		p := c.Base(map[string]any{
			"file_path":   path,
			"attachments": []any{},
		})
		if t.Content != nil && path == t.FilePath {
			p["content"] = *t.Content
		}
		return Call{Step: event.BeforeReadFile, Payload: p}, true
	case KindMCP:
		return Call{Step: event.BeforeMCPExecution, Payload: c.Base(withServer(t, map[string]any{
			"tool_name":  t.MCPTool,
			"tool_input": CompactJSON(t.AgentInput),
		}))}, true
	}
	return Call{}, false
}

// PostCalls are the steps after a tool ran: postToolUse, and the shell,
// edit and MCP after-steps. output is the tool's result as the agent gave
// it (JSON), shellOutput the terminal text of a shell command.
func (c Common) PostCalls(t *ToolCall, output json.RawMessage, shellOutput string, durationMS float64) []Call {
	result := CompactRaw(output)
	calls := []Call{{Step: event.PostToolUse, Payload: c.Base(withServer(t, map[string]any{
		"tool_name":   t.Name,
		"tool_input":  t.Input,
		"tool_output": result,
		"tool_use_id": t.UseID,
		"cwd":         c.Cwd,
		"duration":    durationMS,
	}))}}
	switch t.Kind {
	case KindShell:
		calls = append(calls, Call{Step: event.AfterShellExecution, Payload: c.Base(map[string]any{
			"command":  t.Command,
			"output":   shellOutput,
			"duration": durationMS,
			"sandbox":  false,
			"cwd":      c.Cwd,
		})})
	case KindWrite:
		if t.FilePath != "" {
			edits := t.Edits
			if edits == nil {
				edits = []event.FileEdit{}
			}
			calls = append(calls, Call{Step: event.AfterFileEdit, Payload: c.Base(map[string]any{
				"file_path": t.FilePath,
				"edits":     edits,
			})})
		}
	case KindMCP:
		calls = append(calls, Call{Step: event.AfterMCPExecution, Payload: c.Base(withServer(t, map[string]any{
			"tool_name":   t.MCPTool,
			"tool_input":  CompactJSON(t.AgentInput),
			"result_json": result,
			"duration":    durationMS,
		}))})
	}
	return calls
}

// withServer adds an MCP tool's server to a step's payload: not in
// Cursor's schema (its tool_name is MCP:<tool>, and its MCP steps name
// the server's url or command), but the name is all an agent's payload
// says about the server, and what the hooks of another agent's settings
// file match against (Claude Code's mcp__<server>__<tool>), so the server
// an agent named survives the translation. Where the agent's name leaves
// the split open, every reading goes instead ("mcp_readings").
func withServer(t *ToolCall, p map[string]any) map[string]any {
	switch {
	case t.Kind == KindMCP && t.MCPServer != "":
		p["server"] = t.MCPServer
	case len(t.MCPReadings) > 0:
		p["mcp_readings"] = t.MCPReadings
	}
	return p
}

// FailureCall is postToolUseFailure.
func (c Common) FailureCall(t *ToolCall, message string, interrupt bool, durationMS float64) Call {
	// Agents do not say why a tool failed beyond the message; an
	// interrupt is an error with is_interrupt set, as in Cursor.
	return Call{Step: event.PostToolUseFailure, Payload: c.Base(withServer(t, map[string]any{
		"tool_name":     t.Name,
		"tool_input":    t.Input,
		"tool_use_id":   t.UseID,
		"cwd":           c.Cwd,
		"error_message": message,
		"failure_type":  event.FailureError,
		"duration":      durationMS,
		"is_interrupt":  interrupt,
	}))}
}

// PromptCall is beforeSubmitPrompt.
func (c Common) PromptCall(prompt string) Call {
	return Call{Step: event.BeforeSubmitPrompt, Payload: c.Base(map[string]any{
		"prompt":      prompt,
		"attachments": []any{},
	})}
}

// StopCall is stop. active is the agent's stop_hook_active: when false this
// stop does not follow a hook's follow-up, so the chain of follow-ups
// starts over (loop_count 0); when true, or when the agent does not say
// (known false), the engine's own count of follow-ups in a row stands.
func (c Common) StopCall(status string, active, known bool) Call {
	p := c.Base(map[string]any{"status": status})
	if known && !active {
		p["loop_count"] = 0
	}
	return Call{Step: event.Stop, Payload: p}
}

// SubagentStopCall is subagentStop.
func (c Common) SubagentStopCall(id, typ, summary, transcript string, active, known bool) Call {
	p := c.Base(map[string]any{
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

// SessionStartCall is sessionStart; source is the agent's reason
// (startup, resume, …), passed on beside Cursor's fields.
func (c Common) SessionStartCall(source string) Call {
	p := c.Base(map[string]any{
		"session_id":          c.Conversation,
		"is_background_agent": false,
		"composer_mode":       "agent",
	})
	if source != "" {
		p["source"] = source
	}
	return Call{Step: event.SessionStart, Payload: p}
}

// SessionEndCall is sessionEnd. Agents give their own reasons; Cursor's
// reason is one of five words, so the agent's goes into final_status.
func (c Common) SessionEndCall(agentReason string) Call {
	reason := event.StatusCompleted
	switch strings.ToLower(agentReason) {
	case "clear", "logout", "prompt_input_exit", "exit", "user_exit", "abort":
		reason = event.ReasonUserClose
	case "error", "timeout":
		reason = event.StatusError
	}
	return Call{Step: event.SessionEnd, Payload: c.Base(map[string]any{
		"session_id":          c.Conversation,
		"reason":              reason,
		"duration_ms":         0,
		"is_background_agent": false,
		"final_status":        agentReason,
	})}
}

// CompactCall is preCompact.
func (c Common) CompactCall(trigger string) Call {
	if trigger != event.TriggerManual {
		trigger = event.TriggerAuto
	}
	return Call{Step: event.PreCompact, Payload: c.Base(map[string]any{
		"trigger":               trigger,
		"context_usage_percent": 0,
		"context_tokens":        0,
		"context_window_size":   0,
		"message_count":         0,
		"messages_to_compact":   0,
		"is_first_compaction":   false,
	})}
}

// CompactJSON encodes a tool input as the JSON string Cursor's MCP steps carry.
func CompactJSON(m map[string]any) string {
	b, err := Encode(m)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// CompactRaw is a tool result as the JSON string Cursor's after-steps
// carry: a string result is kept as it is, anything else encoded.
func CompactRaw(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	v, err := jsonscan.Decode(raw)
	if err != nil {
		return string(raw)
	}
	b, err := Encode(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// ResultText is the text of a tool's result for afterShellExecution's
// output: a string as it is; an object's stdout and stderr, or its
// llmContent/output/text, else the whole object encoded.
func ResultText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	v, err := jsonscan.Decode(raw)
	if s, ok := v.(string); ok && err == nil {
		return s
	}
	if m, ok := jsonscan.AsObject(v); ok {
		out, errOut := Str(m, "stdout"), Str(m, "stderr")
		switch {
		case out != "" && errOut != "":
			return out + "\n" + errOut
		case out != "" || errOut != "":
			return out + errOut
		}
		if t := Str(m, "output", "llmContent", "textResultForLlm", "text_result_for_llm", "returnDisplay"); t != "" {
			return t
		}
	}
	return string(raw)
}

// Clone copies a decoded tool input, so the hooks' copy can be changed
// without touching the agent's.
func Clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Role is how a tool's input is read, whatever the agent calls the tool.
type Role int

const (
	RoleOther Role = iota
	RoleShell      // {command}
	RoleRead       // {file_path}
	RoleWrite      // {file_path, content}: the whole file
	RoleEdit       // {file_path, old_string, new_string} or {edits: [...]}
	RoleTask       // {subagent_type, prompt}
)

// ToolSpec maps an agent's tool to Cursor's name and a role.
type ToolSpec struct {
	Name string
	Role Role
}

// SpecOf is the spec of an agent's tool; a tool not in the table keeps
// its name.
func SpecOf(tools map[string]ToolSpec, name string) ToolSpec {
	if spec, ok := tools[name]; ok {
		return spec
	}
	return ToolSpec{name, RoleOther}
}

// PathKeys are the input keys agents put a file's path in (after
// camelCase keys are snake_cased).
var PathKeys = []string{"file_path", "path", "absolute_path", "notebook_path"}

// Describe builds the neutral description of a tool call from its spec.
func (c Common) Describe(agentName string, spec ToolSpec, useID string, agentInput, input map[string]any) *ToolCall {
	if spec.Role == RoleShell {
		return c.ShellTool(agentName, useID, Str(input, "command", "cmd"), agentInput, input)
	}
	t := &ToolCall{AgentName: agentName, Name: spec.Name, UseID: useID, AgentInput: agentInput, Input: input}
	switch spec.Role {
	case RoleRead:
		t.Kind = KindRead
		t.FilePath = c.Abs(Str(input, PathKeys...))
		if s, ok := input["content"].(string); ok {
			t.Content = &s
		}
	case RoleWrite:
		t.Kind = KindWrite
		t.FilePath = c.Abs(Str(input, PathKeys...))
		t.Edits = []event.FileEdit{{NewString: Str(input, "content", "contents", "file_text")}}
	case RoleEdit:
		t.Kind = KindWrite
		t.FilePath = c.Abs(Str(input, PathKeys...))
		t.Edits = EditsOf(input)
	case RoleTask:
		t.Kind = KindTask
		t.SubagentType = Str(input, "subagent_type", "agent_type", "agent")
		t.Task = Str(input, "prompt", "description", "task")
	}
	return t
}

// EditsOf reads the replacements of an edit tool's input: one
// old/new pair, or an edits array of them (Claude's MultiEdit).
func EditsOf(input map[string]any) []event.FileEdit {
	one := func(m map[string]any) event.FileEdit {
		return event.FileEdit{
			OldString: Str(m, "old_string", "old_str", "oldString"),
			NewString: Str(m, "new_string", "new_str", "new_source", "newString"),
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

// SplitMCP splits Claude's and Codex's MCP tool name, mcp__<server>__<tool>.
// A plugin's server is mcp__plugin_<plugin>_<server>__<tool>; the server
// part keeps its plugin prefix.
func SplitMCP(name string) (server, tool string, ok bool) {
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

// ErrorText is an AfterTool error: a string, or an object's message.
func ErrorText(v any) string {
	if e, ok := v.(string); ok {
		return e
	}
	if e, ok := jsonscan.AsObject(v); ok {
		if s := Str(e, "message"); s != "" {
			return s
		}
		b, _ := Encode(e)
		return string(b)
	}
	return ""
}
