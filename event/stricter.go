package event

import (
	"encoding/json"
	"slices"
	"strings"
)

// readStricter reads what a hooks.json hook's answer says to stop the
// action in words the step's schema does not define, which would
// otherwise pass as no opinion: Claude Code's {"decision": "block",
// "reason": …} (and Gemini CLI's "deny"), its
// hookSpecificOutput.permissionDecision "deny" or "ask" with
// permissionDecisionReason, and Cursor's own words on a step without
// them (continue false on a gate, a permission on beforeSubmitPrompt, ask
// on a step that cannot ask). Only what stops the action is read, the
// stricter reading of what the author wrote (docs/semantics.md): on a
// gate a deny (an ask where the step has one), on beforeSubmitPrompt a
// blocked prompt, on stop and subagentStop Claude Code's block as a
// follow-up with the reason (what it means there), after a tool its
// reason as context for the model. A field of the step's own that already
// decides wins. It returns how the answer was worded, for the warning, or
// "" when nothing was read so, and whether it kept a stop going.
func readStricter(step Step, sc schema, obj map[string]json.RawMessage, resp *Response) (form string, held bool) {
	decision, reason, form := stoppingWords(step, sc, obj)
	if decision == "" {
		return "", false
	}
	setMessages := func(user, agent bool) {
		if user && resp.UserMessage == "" {
			resp.UserMessage = reason
		}
		if agent && resp.AgentMessage == "" {
			resp.AgentMessage = reason
		}
	}
	switch {
	case sc.permissions != nil:
		if resp.Permission == Deny || resp.Permission == Ask {
			return "", false
		}
		resp.Permission = Deny
		if decision == "ask" && slices.Contains(sc.permissions, Ask) {
			resp.Permission = Ask
		}
		setMessages(hasField(sc, "user_message"), hasField(sc, "agent_message"))
	case step == BeforeSubmitPrompt:
		if resp.Continue != nil && !*resp.Continue {
			return "", false
		}
		blocked := false
		resp.Continue = &blocked
		setMessages(true, false)
	case (step == Stop || step == SubagentStop) && decision == "block":
		if resp.FollowupMessage != "" || reason == "" {
			return "", false
		}
		resp.FollowupMessage = reason
		return form, true
	case step == PostToolUse && decision == "block":
		if resp.AdditionalContext != "" || reason == "" {
			return "", false
		}
		resp.AdditionalContext = reason
	default:
		return "", false
	}
	return form, false
}

// stoppingWords finds the words of an answer that stop the action but are
// not the step's own: the decision ("block" for a top-level decision,
// else "deny" or "ask"), its reason, and how it was worded; "" when there
// are none.
func stoppingWords(step Step, sc schema, obj map[string]json.RawMessage) (decision, reason, form string) {
	str := func(v json.RawMessage) string {
		var s string
		_ = json.Unmarshal(v, &s)
		return s
	}
	if v, ok := present(obj, "decision"); ok {
		if d := strings.ToLower(str(v)); d == "block" || d == "deny" {
			r, _ := present(obj, "reason")
			// Both keep a stopping agent going: Claude Code's block, and
			// Gemini CLI's AfterAgent deny, which retries with the reason.
			return "block", str(r), `"decision": "` + d + `"`
		}
	}
	if v, ok := present(obj, "hookSpecificOutput"); ok {
		var hso struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		}
		_ = json.Unmarshal(v, &hso)
		if d := strings.ToLower(hso.PermissionDecision); d == "deny" || d == "ask" {
			return d, hso.PermissionDecisionReason, `hookSpecificOutput.permissionDecision "` + d + `"`
		}
	}
	userMessage := func() string {
		for _, k := range []string{"user_message", "userMessage"} {
			if v, ok := present(obj, k); ok {
				return str(v)
			}
		}
		return ""
	}
	if sc.permissions != nil {
		if v, ok := present(obj, "continue"); ok && string(v) == "false" {
			return "deny", userMessage(), `"continue": false, which ` + string(step) + " does not take"
		}
	}
	if step == BeforeSubmitPrompt {
		if v, ok := present(obj, "permission"); ok {
			if p := strings.ToLower(str(v)); p == "deny" || p == "ask" {
				return "deny", userMessage(), `"permission": "` + p + `", which ` + string(step) + " does not take"
			}
		}
	}
	return "", "", ""
}

// hasField reports whether the schema defines key.
func hasField(sc schema, key string) bool {
	return slices.ContainsFunc(sc.fields, func(f field) bool { return f.key == key })
}
