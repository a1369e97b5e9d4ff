package claude

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agenthooks/agenthooks/agent"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// Targets returns the values a Claude Code hook's matcher is tested
// against for a Cursor payload, by Claude Code's rules: the tool name on
// tool events, the agent type on SubagentStop, the source on SessionStart
// (Cursor has only fresh starts: "startup"), the trigger on PreCompact.
// ok is false where Claude Code ignores matchers.
func Targets(step event.Step, fields map[string]json.RawMessage) (targets []string, ok bool) {
	switch step {
	case event.PreToolUse, event.PostToolUse, event.PostToolUseFailure:
		input, _ := decodeObject(fields["tool_input"])
		server, more := mcpServer(fields)
		return append(MatchNames(str(fields, "tool_name"), input, server), more...), true
	case event.SubagentStop:
		return []string{str(fields, "subagent_type")}, true
	case event.SessionStart:
		if s := str(fields, "source"); s != "" {
			return []string{s}, true
		}
		return []string{"startup"}, true
	case event.PreCompact:
		return []string{str(fields, "trigger")}, true
	case event.SessionEnd:
		return []string{sessionEndReason(str(fields, "reason"))}, true
	}
	return nil, false
}

// Input turns a Cursor payload into the one a Claude Code hook of the
// same event reads. Claude Code's fields are added (hook_event_name
// becomes Claude Code's, tool_name Claude Code's tool name, session_id
// the conversation, …) and Cursor's are kept beside them, so a hook
// written for either finds what it reads.
func Input(step event.Step, payload []byte) ([]byte, error) {
	// jsonscan, not encoding/json, reads the payload: its tool input is
	// the model's to write, and encoding/json gives up on one nested past
	// 10000 levels. The fields not changed here are passed on as they are.
	fields, err := jsonscan.Object(payload)
	if err != nil || fields == nil {
		if err == nil {
			err = errors.New("null")
		}
		return nil, fmt.Errorf("claude code payload: not a JSON object: %v", err)
	}
	set := func(k string, v any) {
		if b, err := marshal(v); err == nil {
			fields[k] = b
		}
	}
	setIfMissing := func(k string, v any) {
		if _, ok := fields[k]; !ok {
			set(k, v)
		}
	}
	set("hook_event_name", Event(step))
	conv := str(fields, "conversation_id")
	if conv == "" {
		conv = str(fields, "session_id")
	}
	setIfMissing("session_id", conv)
	if str(fields, "cwd") == "" {
		var roots []string
		if json.Unmarshal(fields["workspace_roots"], &roots) == nil && len(roots) > 0 {
			set("cwd", roots[0])
		}
	}
	setIfMissing("transcript_path", nil)
	setIfMissing("permission_mode", "default")

	switch step {
	case event.PreToolUse, event.PostToolUse, event.PostToolUseFailure:
		input, _ := decodeObject(fields["tool_input"])
		tool := str(fields, "tool_name")
		server, _ := mcpServer(fields)
		set("tool_name", ToolName(tool, input, server))
		if p, ok := otherPath(tool, input); ok {
			// Claude Code's file tools name the file file_path; an agent's
			// that say path (Copilot's view, the contract's Read) are
			// given it too, so a hook reading file_path finds the file.
			input["file_path"] = p
			set("tool_input", input)
		}
		if step == event.PostToolUse {
			set("tool_response", decodedOutput(str(fields, "tool_output")))
		}
		if step == event.PostToolUseFailure {
			set("error", str(fields, "error_message"))
		}
	case event.Stop, event.SubagentStop:
		var n int
		_ = json.Unmarshal(fields["loop_count"], &n)
		set("stop_hook_active", n > 0)
		if step == event.SubagentStop {
			set("agent_type", str(fields, "subagent_type"))
			setIfMissing("agent_id", str(fields, "subagent_id"))
		}
	case event.SessionStart:
		setIfMissing("source", "startup")
	case event.SessionEnd:
		set("reason", sessionEndReason(str(fields, "reason")))
	case event.PreCompact:
		setIfMissing("custom_instructions", "")
	}
	return marshal(fields)
}

// sessionEndReason maps Cursor's reason to the nearest of Claude Code's
// (clear, logout, prompt_input_exit, other).
func sessionEndReason(cursor string) string {
	if cursor == event.ReasonUserClose {
		return "prompt_input_exit"
	}
	return "other"
}

// decodedOutput is Cursor's JSON-encoded tool_output as the value Claude
// Code's tool_response holds; text that is not JSON stays text. What is
// nested too deep to decode stays JSON, passed on as it is.
func decodedOutput(s string) any {
	if s == "" {
		return s
	}
	if v, err := jsonscan.Decode([]byte(s)); err == nil {
		return v
	}
	return s
}

// decodeObject decodes a tool input one level down: enough for the
// names, whatever the input's depth.
func decodeObject(raw json.RawMessage) (map[string]any, bool) {
	if len(raw) == 0 {
		return nil, false
	}
	m, err := jsonscan.DecodeObject(raw)
	if err != nil || m == nil {
		return nil, false
	}
	return m, true
}

func str(fields map[string]json.RawMessage, k string) string {
	s, _ := jsonscan.String(fields[k])
	return s
}

// marshal encodes without HTML escaping: a hook grepping for "2>&1"
// must find it.
func marshal(v any) ([]byte, error) { return jsonplain.Marshal(v) }

// otherPath is the path of a file tool's input that names it other than
// by file_path (path, absolute_path), for a Claude Code hook, which reads
// file_path; ok is false when the input has file_path or no path.
func otherPath(tool string, input map[string]any) (string, bool) {
	if tool != agent.ToolRead && tool != agent.ToolWrite || input == nil {
		return "", false
	}
	if _, ok := input["file_path"]; ok {
		return "", false
	}
	for _, k := range agent.PathKeys[1:] {
		if p, ok := input[k].(string); ok && p != "" {
			return p, true
		}
	}
	return "", false
}
