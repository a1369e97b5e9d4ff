package runner

import (
	"encoding/json"
	"fmt"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/llm"
)

// notMetReason stands in for an empty reason when the condition is not
// met, because every place a "no" is shown needs words.
const notMetReason = "The prompt hook's condition was not met."

// promptResponse turns a verdict into the step's answer, in Cursor's
// output shape, then through event.ParseResponse so that only the fields
// the step defines are set (beforeTabFileRead, say, has no messages):
//
//   - gating steps: ok → permission allow; not ok → deny, with the reason
//     as user_message and agent_message;
//   - beforeSubmitPrompt: ok → continue true; not ok → continue false with
//     the reason as user_message;
//   - stop, subagentStop: not ok → followup_message = the reason, so the
//     agent keeps working on what is missing (Claude Code's prompt hooks
//     behave so); ok → nothing;
//   - sessionStart, postToolUse: not ok → additional_context = the reason,
//     the only channel to the agent these steps have;
//   - preCompact: not ok → user_message = the reason;
//   - every other step: nothing; the verdict is logged.
//
// Response.Raw is the model's verdict, for the execution log.
func promptResponse(step event.Step, ans llm.Answer) (*event.Response, error) {
	reason := ans.Reason
	if !ans.OK && reason == "" {
		reason = notMetReason
	}
	out := map[string]any{}
	switch {
	case step.Gating():
		if ans.OK {
			out["permission"] = event.Allow
		} else {
			out["permission"] = event.Deny
			out["user_message"], out["agent_message"] = reason, reason
		}
	case step == event.BeforeSubmitPrompt:
		out["continue"] = ans.OK
		if !ans.OK {
			out["user_message"] = reason
		}
	case ans.OK:
	case step == event.Stop || step == event.SubagentStop:
		out["followup_message"] = reason
	case step == event.SessionStart || step == event.PostToolUse:
		out["additional_context"] = reason
	case step == event.PreCompact:
		out["user_message"] = reason
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("encoding the %s answer: %w", step, err)
	}
	resp, err := event.ParseResponse(step, b)
	if err != nil {
		return nil, fmt.Errorf("the verdict %s does not make a valid %s answer: %w", ans.Raw, step, err)
	}
	if resp == nil {
		resp = &event.Response{}
	}
	resp.Raw = ans.Raw
	return resp, nil
}
