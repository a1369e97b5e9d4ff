package engine

import (
	"encoding/json"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

// Decision is the merged outcome of every hook that ran for one step.
// Fields a step does not use stay zero.
type Decision struct {
	Step event.Step

	// Permission is the merged gating answer. NoOpinion means no hook
	// said anything, which is not the same as Allow.
	Permission event.Permission
	// Continue is beforeSubmitPrompt's answer; nil when no hook said.
	Continue *bool

	UserMessage  string
	AgentMessage string

	UpdatedInput         json.RawMessage
	NewContent           *string
	FollowupMessage      string
	Env                  map[string]string
	AdditionalContext    string
	UpdatedMCPToolOutput json.RawMessage

	// ClientMessage and ModelMessage are what a host shows the user and
	// the model when the step is blocked, worded as Cursor words them.
	ClientMessage string
	ModelMessage  string

	// LoopCount is the loop_count the stop/subagentStop hooks were given.
	LoopCount int

	// Hooks is every hook that matched, in priority order, with its result.
	Hooks []Outcome
}

// Outcome is one hook's part in a decision.
type Outcome struct {
	Hook   *config.Hook
	Result runner.Result
	// Said is what the hook's answer counted as in the merge: "allow",
	// "deny", "ask", "block", "continue", "none", "failed", "fail-closed".
	Said string
}

// Blocked reports whether the action must not go ahead: a gating step
// denied, or a prompt submission stopped.
func (d *Decision) Blocked() bool {
	if d.Permission == event.Deny {
		return true
	}
	return d.Step == event.BeforeSubmitPrompt && d.Continue != nil && !*d.Continue
}

// Summary is a one-word description of the decision for the execution log.
func (d *Decision) Summary() string {
	switch {
	case d.Step == event.BeforeSubmitPrompt && d.Continue != nil:
		if *d.Continue {
			return "continue"
		}
		return "block"
	case d.Permission != event.NoOpinion:
		return string(d.Permission)
	case d.FollowupMessage != "":
		return "followup"
	}
	return "none"
}

// Response returns the decision in Cursor's response shape for the step,
// as a hook would have answered it; empty when no hook had an opinion.
func (d *Decision) Response() map[string]any {
	out := map[string]any{}
	if d.Permission != event.NoOpinion {
		out["permission"] = string(d.Permission)
	}
	if d.Continue != nil {
		out["continue"] = *d.Continue
	}
	putString(out, "user_message", d.UserMessage)
	putString(out, "agent_message", d.AgentMessage)
	if len(d.UpdatedInput) > 0 {
		out["updated_input"] = d.UpdatedInput
	}
	if d.NewContent != nil {
		out["new_content"] = *d.NewContent
	}
	putString(out, "followup_message", d.FollowupMessage)
	if len(d.Env) > 0 {
		out["env"] = d.Env
	}
	putString(out, "additional_context", d.AdditionalContext)
	if len(d.UpdatedMCPToolOutput) > 0 {
		out["updated_mcp_tool_output"] = d.UpdatedMCPToolOutput
	}
	return out
}

func putString(m map[string]any, k, v string) {
	if v != "" {
		m[k] = v
	}
}
