package event

import "encoding/json"

// MatchTarget returns the value a hook's matcher is tested against for step
// (Cursor's hooks documentation, "Matcher Configuration";
// docs/semantics.md, Matchers), taken from the event payload where it
// varies. ok is false for steps whose matcher is ignored, so that the
// caller runs those hooks whatever their matcher.
//
// A payload field that is missing or not a string gives "" with ok true:
// the step does use matchers, and "" is what a host that forgot the field
// would have matched against.
//
// beforeReadFile and afterFileEdit give the agent's tool names "Read" and
// "Write"; Tab has its own steps, which give "TabRead" and "TabWrite", so
// one matcher such as "Read|TabRead" can serve a policy shared by both.
func MatchTarget(step Step, payload map[string]json.RawMessage) (string, bool) {
	switch step {
	case PreToolUse, PostToolUse, PostToolUseFailure:
		return stringField(payload, "tool_name"), true
	case SubagentStart, SubagentStop:
		return stringField(payload, "subagent_type"), true
	case BeforeShellExecution, AfterShellExecution:
		return stringField(payload, "command"), true
	case BeforeReadFile:
		return "Read", true
	case BeforeTabFileRead:
		return "TabRead", true
	case AfterFileEdit:
		return "Write", true
	case AfterTabFileEdit:
		return "TabWrite", true
	case BeforeSubmitPrompt:
		return "UserPromptSubmit", true
	case Stop:
		return "Stop", true
	case AfterAgentResponse:
		return "AgentResponse", true
	case AfterAgentThought:
		return "AgentThought", true
	}
	return "", false
}

// stringField returns payload[key] if it is a JSON string, else "".
func stringField(payload map[string]json.RawMessage, key string) string {
	v, ok := payload[key]
	if !ok || kindOf(v) != kindString {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

// FixedTarget returns the one value a matcher of step is ever tested
// against, for the steps whose value does not come from the payload
// (beforeReadFile: "Read", stop: "Stop", …); ok is false for the others.
// A matcher that does not match it never fires.
func FixedTarget(step Step) (string, bool) {
	switch step {
	case PreToolUse, PostToolUse, PostToolUseFailure, SubagentStart, SubagentStop, BeforeShellExecution, AfterShellExecution:
		return "", false
	}
	return MatchTarget(step, nil)
}
