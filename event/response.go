package event

import "encoding/json"

// Response is one hook's answer, normalised across steps: every field any
// step's response may carry, with the ones a step does not define left
// zero. ParseResponse fills it from a hook's stdout after validating it
// against the step's schema.
type Response struct {
	// Permission is the gating answer (gating steps only).
	Permission Permission `json:"permission,omitempty"`
	// Continue is beforeSubmitPrompt's answer; nil means not given.
	Continue *bool `json:"continue,omitempty"`
	// UserMessage is shown to the user; AgentMessage is fed to the model.
	UserMessage  string `json:"user_message,omitempty"`
	AgentMessage string `json:"agent_message,omitempty"`
	// UpdatedInput replaces the tool input (preToolUse).
	UpdatedInput json.RawMessage `json:"updated_input,omitempty"`
	// NewContent replaces the file content handed to the model (beforeReadFile).
	NewContent *string `json:"new_content,omitempty"`
	// FollowupMessage is auto-submitted as the next user message (stop, subagentStop).
	FollowupMessage string `json:"followup_message,omitempty"`
	// Env is added to every later hook of the session (sessionStart).
	Env map[string]string `json:"env,omitempty"`
	// AdditionalContext is injected into the conversation (sessionStart, postToolUse).
	AdditionalContext string `json:"additional_context,omitempty"`
	// UpdatedMCPToolOutput replaces an MCP tool's output (postToolUse).
	UpdatedMCPToolOutput json.RawMessage `json:"updated_mcp_tool_output,omitempty"`
	// Raw is the object exactly as the hook printed it, for the log and
	// for after-steps whose answers are recorded but not merged.
	Raw json.RawMessage `json:"-"`
}

// Reading says how ParseAnswer read an answer beyond its step's own words
// (readStricter), for the warning and the exit-code rule. It is kept out
// of Response, which every hook's answer allocates.
type Reading struct {
	// Form names the words not the step's own that the answer was read
	// from (Claude Code's `"decision": "block"`); "" for the step's own.
	Form string
	// Held: a stop's follow-up read from a block of the stop, which means
	// the agent must not stop.
	Held bool
}

// Stops reports whether the answer, read so, denies, asks or blocks.
func (rd Reading) Stops(r *Response) bool { return r.Stops() || rd.Held }

// StopsWord says how the answer, read so, stops the action.
func (rd Reading) StopsWord(r *Response) string {
	if w := r.StopsWord(); w != "" || !rd.Held {
		return w
	}
	return "keeps the agent going"
}

// Stops reports whether the answer denies, asks or blocks: a permission
// of deny or ask, or continue false.
func (r *Response) Stops() bool {
	return r != nil && (r.Permission == Deny || r.Permission == Ask || (r.Continue != nil && !*r.Continue))
}

// StopsWord says how the answer stops the action ("denies", "asks",
// "blocks"), for messages; "" when it does not.
func (r *Response) StopsWord() string {
	switch {
	case r == nil:
		return ""
	case r.Permission == Deny:
		return "denies"
	case r.Permission == Ask:
		return "asks"
	case r.Continue != nil && !*r.Continue:
		return "blocks"
	}
	return ""
}
