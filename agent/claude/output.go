package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/hookshape"
)

// Answer is a Claude Code hook's output read as a Cursor hook's.
type Answer = hookshape.Answer

// Output reads a Claude Code hook's exit code and output by Claude Code's
// rules (Claude Code's hooks reference, exit codes and JSON output; Cursor's
// mapping of them: docs/dialects.md, Claude Code's own hooks as sources):
//
//   - stdout whose first non-blank byte is "{" and that parses is JSON;
//     anything else is text.
//   - exit 0: the JSON is the answer; text becomes context on
//     SessionStart and is otherwise ignored (Claude Code logs it).
//   - exit 2: blocks the tool call or prompt, with the JSON's reason or
//     else stderr; on Stop it keeps the agent going with stderr as the
//     instruction; after a tool, stderr is fed back to the model.
//   - any other exit: the JSON, if there is some, decides; otherwise the
//     hook failed (fail-open, as in Claude Code).
//
// Cursor's flat fields (permission, user_message, followup_message, …) are
// accepted as well, as Cursor accepts them.
func Output(step event.Step, exitCode int, stdout, stderr []byte) Answer {
	obj := jsonObject(stdout)
	msg := strings.TrimSpace(string(stderr))
	switch exitCode {
	case 0:
		if obj != nil {
			return Answer{Response: translate(step, obj), Ignored: ignored(step, obj)}
		}
		text := strings.TrimSpace(string(stdout))
		switch {
		case text != "" && step == event.SessionStart:
			return Answer{Response: mustJSON(map[string]any{"additional_context": text})}
		case text != "" && step == event.BeforeSubmitPrompt:
			// Claude Code adds a UserPromptSubmit hook's plain stdout to
			// the model's context; Cursor's prompt step has no context.
			return Answer{Ignored: "plain text " + quoted(text) + " (context, under Claude Code)"}
		}
		return Answer{}
	case 2:
		var resp []byte
		if obj != nil {
			resp = translate(step, obj)
		}
		if resp == nil && msg != "" {
			resp = exit2Response(step, msg)
		}
		return Answer{Response: resp, Block: step == event.PreToolUse || step == event.BeforeSubmitPrompt}
	}
	if obj != nil {
		return Answer{Response: translate(step, obj), Ignored: ignored(step, obj)}
	}
	detail := fmt.Sprintf("exited with status %d", exitCode)
	if line := firstLine(msg); line != "" {
		detail += ": " + line
	}
	return Answer{Failure: detail}
}

// exit2Response is what stderr means after exit 2 without a JSON answer:
// the reason of a denied tool call, the instruction that keeps a stopping
// agent going, context after a tool, the message of a stopped compaction;
// nil where the engine's exit-2 rule or nothing applies.
func exit2Response(step event.Step, msg string) []byte {
	switch step {
	case event.PreToolUse:
		return mustJSON(map[string]any{"permission": "deny", "user_message": msg, "agent_message": msg})
	case event.Stop, event.SubagentStop:
		return mustJSON(map[string]any{"followup_message": msg})
	case event.PostToolUse:
		return mustJSON(map[string]any{"additional_context": msg})
	case event.PreCompact:
		return mustJSON(map[string]any{"user_message": msg})
	}
	return nil
}

// jsonObject decodes stdout when it is a JSON object.
func jsonObject(stdout []byte) map[string]any {
	t := bytes.TrimSpace(stdout)
	if len(t) == 0 || t[0] != '{' {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(t, &m) != nil {
		return nil
	}
	return m
}

// cursorKeys are Cursor's response fields, passed through as they are.
var cursorKeys = []string{"permission", "user_message", "agent_message", "updated_input",
	"followup_message", "additional_context", "continue", "env", "updated_mcp_tool_output"}

// translate maps Claude Code's JSON answer to Cursor's response fields for
// the step. It returns nil when nothing in it means anything here.
func translate(step event.Step, obj map[string]any) []byte {
	out := map[string]any{}
	for _, k := range cursorKeys {
		if v, ok := obj[k]; ok {
			out[k] = v
		}
	}
	hso, _ := obj["hookSpecificOutput"].(map[string]any)
	decision, _ := obj["decision"].(string)
	reason, _ := obj["reason"].(string)
	context := text(hso, "additionalContext")
	stopped := obj["continue"] == false
	stopReason := text(obj, "stopReason")
	if stopReason == "" {
		stopReason = reason
	}
	delete(out, "continue")

	switch step {
	case event.PreToolUse:
		perm := text(hso, "permissionDecision")
		why := text(hso, "permissionDecisionReason")
		switch decision { // the deprecated top-level form
		case "approve":
			perm = firstOf(perm, "allow")
		case "block":
			perm = firstOf(perm, "deny")
		}
		if why == "" {
			why = reason
		}
		if stopped {
			perm, why = "deny", firstOf(stopReason, why)
		}
		switch perm {
		case "allow", "deny", "ask":
			out["permission"] = perm
		}
		if why != "" {
			out["user_message"] = why
			if perm == "deny" {
				// Claude Code shows a deny's reason to the model.
				out["agent_message"] = why
			}
		}
		if u, ok := hso["updatedInput"].(map[string]any); ok {
			out["updated_input"] = u
		}
	case event.PostToolUse:
		var parts []string
		if decision == "block" && reason != "" {
			parts = append(parts, reason)
		}
		if context != "" {
			parts = append(parts, context)
		}
		if len(parts) > 0 {
			out["additional_context"] = strings.Join(parts, "\n")
		}
		for _, k := range []string{"updatedMCPToolOutput", "updatedToolOutput"} {
			if v, ok := hso[k]; ok {
				out["updated_mcp_tool_output"] = v
				break
			}
		}
	case event.BeforeSubmitPrompt:
		if decision == "block" || stopped {
			out["continue"] = false
			if m := firstOf(reason, stopReason); m != "" {
				out["user_message"] = m
			}
		}
	case event.Stop, event.SubagentStop:
		if !stopped {
			if decision == "block" && reason != "" {
				out["followup_message"] = reason
			} else if context != "" {
				out["followup_message"] = context
			}
		} else {
			delete(out, "followup_message")
		}
	case event.SessionStart:
		if context != "" {
			out["additional_context"] = context
		}
	case event.PreCompact:
		if decision == "block" && reason != "" {
			out["user_message"] = reason
		}
	}
	if m := text(obj, "systemMessage"); m != "" {
		if _, ok := out["user_message"]; !ok && step != event.Stop && step != event.SubagentStop && step != event.PostToolUse {
			out["user_message"] = m
		}
	}
	if len(out) == 0 {
		return nil
	}
	return mustJSON(out)
}

// ignored names what a Claude Code answer carries that the Cursor step
// cannot: additionalContext before a tool runs or with a prompt (Claude
// Code hands it to the model; Cursor's preToolUse and beforeSubmitPrompt
// have no context). "" when nothing is dropped.
func ignored(step event.Step, obj map[string]any) string {
	hso, _ := obj["hookSpecificOutput"].(map[string]any)
	c := text(hso, "additionalContext")
	if c == "" {
		return ""
	}
	switch step {
	case event.PreToolUse, event.BeforeSubmitPrompt:
		return "additionalContext " + quoted(c)
	}
	return ""
}

// quoted is s quoted and cut to one short line, for messages.
func quoted(s string) string {
	return strconv.Quote(firstLine(s))
}

func text(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// mustJSON encodes maps built from decoded JSON, which always encode.
func mustJSON(v any) []byte {
	b, err := marshal(v)
	if err != nil {
		return nil
	}
	return b
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	line = strings.TrimSpace(line)
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return line
}
