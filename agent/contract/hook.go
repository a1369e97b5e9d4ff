package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// The other direction of the contract: `agenthooks contract BINARY` runs
// a contract-style binary as a Cursor hook. ContractHookInput turns the
// Cursor payload into the contract's stdin, ContractHookAnswer turns the
// binary's answer into a Cursor hook's, so binaries written for the
// contract (docs/dialects.md) work in hooks.json unchanged.

// contractNames are the contract's names for Cursor's tools; tools not
// listed keep Cursor's name.
var contractNames = map[string]string{agent.ToolShell: "Shell", agent.ToolRead: "Read", agent.ToolWrite: "Write", agent.ToolGrep: "Grep"}

// contractLifecycle are the contract's names for Cursor's lifecycle steps.
var contractLifecycle = map[event.Step]string{
	event.SessionStart:       "SessionStart",
	event.BeforeSubmitPrompt: "beforeSubmitPrompt",
	event.Stop:               "Stop",
	event.PreCompact:         "PreCompact",
	event.SessionEnd:         "SessionEnd",
}

// HookInput reads a Cursor hook payload (the step from its
// hook_event_name) and returns the step and the contract's stdin:
// {"tool_name": NAME, "tool_input": {…}}. Tool steps give the tool and its
// input in the contract's shapes (Shell {command}, Read {path}, Write
// {path, contents}, an edit as Edit); lifecycle steps give the event's
// name and the payload's fields.
func HookInput(payload []byte) (event.Step, []byte, error) {
	p, err := jsonscan.DecodeObject(bytes.TrimSpace(payload))
	if err != nil || p == nil {
		return "", nil, fmt.Errorf("the payload on stdin is not a JSON object: it must be a Cursor hook payload")
	}
	stepName, _ := p["hook_event_name"].(string)
	step := event.Step(stepName)
	if !step.Known() {
		return "", nil, fmt.Errorf("the payload's hook_event_name %q is not a Cursor step", stepName)
	}
	var name string
	var input map[string]any
	switch step {
	case event.PreToolUse, event.PostToolUse, event.PostToolUseFailure:
		tool, _ := p["tool_name"].(string)
		in, _ := jsonscan.AsObject(p["tool_input"])
		name, input = contractTool(tool, in)
	case event.BeforeShellExecution, event.AfterShellExecution:
		name, input = "Shell", map[string]any{"command": p["command"], "cwd": p["cwd"]}
	case event.BeforeReadFile, event.BeforeTabFileRead:
		name, input = "Read", map[string]any{"path": p["file_path"]}
		if c, ok := p["content"]; ok {
			input["contents"] = c
		}
	case event.AfterFileEdit, event.AfterTabFileEdit:
		name, input = "Edit", map[string]any{"path": p["file_path"], "edits": p["edits"]}
	case event.BeforeMCPExecution, event.AfterMCPExecution:
		tool, _ := p["tool_name"].(string)
		var in map[string]any
		if s, ok := p["tool_input"].(string); ok {
			in, _ = jsonscan.DecodeObject([]byte(s))
		}
		name, input = agent.ToolMCP+tool, in
	default:
		name = string(step)
		if n, ok := contractLifecycle[step]; ok {
			name = n
		}
		input = contractLifecycleInput(step, p)
	}
	if input == nil {
		input = map[string]any{}
	}
	b, err := agent.Encode(map[string]any{"tool_name": name, "tool_input": input})
	return step, b, err
}

// contractTool names a Cursor tool call in the contract's terms.
func contractTool(tool string, in map[string]any) (string, map[string]any) {
	out := agent.Clone(in)
	if p := agent.Str(in, agent.PathKeys...); p != "" {
		out["path"] = p
	}
	switch tool {
	case agent.ToolWrite:
		if _, edit := in["old_string"]; edit {
			return "Edit", out
		}
		if c, ok := in["content"]; ok {
			out["contents"] = c
		}
		return "Write", out
	}
	if n, ok := contractNames[tool]; ok {
		return n, out
	}
	return tool, out
}

// contractLifecycleInput is a lifecycle step's fields, with the contract's
// session_id, cwd and stop_hook_active.
func contractLifecycleInput(step event.Step, p map[string]any) map[string]any {
	in := agent.Clone(p)
	if _, ok := in["session_id"]; !ok {
		in["session_id"] = p["conversation_id"]
	}
	if _, ok := in["cwd"]; !ok {
		if roots, ok := jsonscan.AsArray(p["workspace_roots"]); ok && len(roots) > 0 {
			in["cwd"] = roots[0]
		}
	}
	if step == event.Stop {
		n, _ := p["loop_count"].(float64)
		in["stop_hook_active"] = n > 0
	}
	return in
}

// HookAnswer reads a contract binary's exit code and output and
// returns what agenthooks contract prints as the Cursor hook: stdout, a
// message for stderr, and its exit code.
//
//   - exit 2, or "decision": "deny": a deny (gates), a blocked prompt
//     (beforeSubmitPrompt), with the reason (or stderr) as the message.
//     Exit 2 is kept, so Cursor's exit-2 rule applies too.
//   - "decision": "allow" on a gate: an explicit allow.
//   - "reason" on stop: the follow-up; "message" on sessionStart: context,
//     on preCompact: the user message.
//   - exit 0 without a JSON object (or unreadable JSON): no opinion, as the
//     contract says parse errors allow.
//   - any other exit: the same exit code, so the hook has failed and its
//     failClosed decides; the binary's stderr is passed on.
func HookAnswer(step event.Step, code int, stdout, stderr []byte) (out []byte, msg string, exit int) {
	var a struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
		Message  string `json:"message"`
	}
	parsed := json.Unmarshal(bytes.TrimSpace(stdout), &a) == nil
	errText := strings.TrimSpace(string(stderr))
	if code != 0 && code != 2 {
		return nil, errText, code
	}
	deny := code == 2 || (parsed && strings.EqualFold(a.Decision, "deny"))
	reason := a.Reason
	if reason == "" && code == 2 {
		reason = errText
	}
	resp := map[string]any{}
	gate := step.Gating()
	switch {
	case deny && gate:
		resp["permission"] = "deny"
		if reason != "" {
			resp["user_message"] = reason
			resp["agent_message"] = reason
		}
	case deny && step == event.BeforeSubmitPrompt:
		resp["continue"] = false
		if reason != "" {
			resp["user_message"] = reason
		}
	case parsed && gate && strings.EqualFold(a.Decision, "allow"):
		resp["permission"] = "allow"
	case parsed && (step == event.Stop || step == event.SubagentStop) && a.Reason != "":
		resp["followup_message"] = a.Reason
	case parsed && step == event.SessionStart && a.Message != "":
		resp["additional_context"] = a.Message
	case parsed && step == event.PreCompact && a.Message != "":
		resp["user_message"] = a.Message
	}
	if step == event.BeforeReadFile || step == event.BeforeTabFileRead {
		delete(resp, "agent_message")
	}
	if step == event.BeforeTabFileRead {
		delete(resp, "user_message")
	}
	exit = 0
	if deny && (gate || step == event.BeforeSubmitPrompt) && code == 2 {
		exit = 2
	}
	if deny {
		msg = reason
	}
	return agent.JSONLine(resp), msg, exit
}
