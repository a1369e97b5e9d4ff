package event

import "encoding/json"

// Output is the answer a hook prints on stdout for one step. The XxxOutput
// types spell each step's response schema (the output tables of Cursor's
// hooks documentation, plus beforeReadFile's new_content from an older
// edition; docs/semantics.md); a hook written in Go can marshal one. Every
// field is optional, so every field is omitempty and the zero Output
// marshals to {}, which is "no opinion".
//
// The engine does not decode into these types: ParseResponse validates the
// printed object and normalises it into a Response.
type Output interface {
	// Step names the step the answer belongs to.
	Step() Step
}

// NewOutput returns a pointer to the zero output struct for step, or nil
// for a step this package does not know.
func NewOutput(step Step) Output {
	switch step {
	case SessionStart:
		return &SessionStartOutput{}
	case SessionEnd:
		return &SessionEndOutput{}
	case PreToolUse:
		return &PreToolUseOutput{}
	case PostToolUse:
		return &PostToolUseOutput{}
	case PostToolUseFailure:
		return &PostToolUseFailureOutput{}
	case SubagentStart:
		return &SubagentStartOutput{}
	case SubagentStop:
		return &SubagentStopOutput{}
	case BeforeShellExecution:
		return &BeforeShellExecutionOutput{}
	case AfterShellExecution:
		return &AfterShellExecutionOutput{}
	case BeforeMCPExecution:
		return &BeforeMCPExecutionOutput{}
	case AfterMCPExecution:
		return &AfterMCPExecutionOutput{}
	case BeforeReadFile:
		return &BeforeReadFileOutput{}
	case AfterFileEdit:
		return &AfterFileEditOutput{}
	case BeforeSubmitPrompt:
		return &BeforeSubmitPromptOutput{}
	case PreCompact:
		return &PreCompactOutput{}
	case Stop:
		return &StopOutput{}
	case AfterAgentResponse:
		return &AfterAgentResponseOutput{}
	case AfterAgentThought:
		return &AfterAgentThoughtOutput{}
	case BeforeTabFileRead:
		return &BeforeTabFileReadOutput{}
	case AfterTabFileEdit:
		return &AfterTabFileEditOutput{}
	}
	return nil
}

// SessionStartOutput sets session environment and initial context.
// Continue and UserMessage are accepted by Cursor's schema but not
// enforced: session creation is never blocked.
type SessionStartOutput struct {
	// Env is added to the environment of every later hook of the session.
	Env               map[string]string `json:"env,omitempty"`
	AdditionalContext string            `json:"additional_context,omitempty"`
	Continue          *bool             `json:"continue,omitempty"`
	UserMessage       string            `json:"user_message,omitempty"`
}

// SessionEndOutput is empty: the answer is logged, not used.
type SessionEndOutput struct{}

// PreToolUseOutput gates a tool call and may rewrite its input.
type PreToolUseOutput struct {
	Permission   Permission `json:"permission,omitempty"`
	UserMessage  string     `json:"user_message,omitempty"`
	AgentMessage string     `json:"agent_message,omitempty"`
	// UpdatedInput, a JSON object, replaces the tool's input.
	UpdatedInput json.RawMessage `json:"updated_input,omitempty"`
}

// PostToolUseOutput may replace an MCP tool's output and add context.
type PostToolUseOutput struct {
	// UpdatedMCPToolOutput replaces the output the model sees (MCP tools
	// only).
	UpdatedMCPToolOutput json.RawMessage `json:"updated_mcp_tool_output,omitempty"`
	AdditionalContext    string          `json:"additional_context,omitempty"`
}

// PostToolUseFailureOutput is empty: no output fields are supported.
type PostToolUseFailureOutput struct{}

// SubagentStartOutput gates a subagent. Cursor treats "ask" as "deny"
// here.
type SubagentStartOutput struct {
	Permission   Permission `json:"permission,omitempty"`
	UserMessage  string     `json:"user_message,omitempty"`
	AgentMessage string     `json:"agent_message,omitempty"`
}

// SubagentStopOutput may continue the subagent with a follow-up (used only
// when the subagent's status is "completed").
type SubagentStopOutput struct {
	FollowupMessage string `json:"followup_message,omitempty"`
}

// BeforeShellExecutionOutput gates a shell command.
type BeforeShellExecutionOutput struct {
	Permission   Permission `json:"permission,omitempty"`
	UserMessage  string     `json:"user_message,omitempty"`
	AgentMessage string     `json:"agent_message,omitempty"`
}

// AfterShellExecutionOutput is empty: the answer is logged, not used.
type AfterShellExecutionOutput struct{}

// BeforeMCPExecutionOutput gates an MCP tool call.
type BeforeMCPExecutionOutput struct {
	Permission   Permission `json:"permission,omitempty"`
	UserMessage  string     `json:"user_message,omitempty"`
	AgentMessage string     `json:"agent_message,omitempty"`
}

// AfterMCPExecutionOutput is empty: the answer is logged, not used.
type AfterMCPExecutionOutput struct{}

// BeforeReadFileOutput gates an agent file read and may redact it.
type BeforeReadFileOutput struct {
	Permission  Permission `json:"permission,omitempty"`
	UserMessage string     `json:"user_message,omitempty"`
	// NewContent replaces the content handed to the model; a pointer
	// because an empty replacement is meaningful.
	NewContent *string `json:"new_content,omitempty"`
}

// AfterFileEditOutput is empty: the answer is logged, not used.
type AfterFileEditOutput struct{}

// BeforeSubmitPromptOutput may block a prompt submission.
type BeforeSubmitPromptOutput struct {
	// Continue false blocks the submission; nil says nothing.
	Continue    *bool  `json:"continue,omitempty"`
	UserMessage string `json:"user_message,omitempty"`
}

// PreCompactOutput may tell the user about a compaction; it cannot block.
type PreCompactOutput struct {
	UserMessage string `json:"user_message,omitempty"`
}

// StopOutput may auto-submit a follow-up user message.
type StopOutput struct {
	FollowupMessage string `json:"followup_message,omitempty"`
}

// AfterAgentResponseOutput is empty: the answer is logged, not used.
type AfterAgentResponseOutput struct{}

// AfterAgentThoughtOutput is empty: no output fields are supported.
type AfterAgentThoughtOutput struct{}

// BeforeTabFileReadOutput gates a Tab file read.
type BeforeTabFileReadOutput struct {
	Permission Permission `json:"permission,omitempty"`
}

// AfterTabFileEditOutput is empty: no output fields are supported.
type AfterTabFileEditOutput struct{}

// Step implements Output.
func (SessionStartOutput) Step() Step { return SessionStart }

// Step implements Output.
func (SessionEndOutput) Step() Step { return SessionEnd }

// Step implements Output.
func (PreToolUseOutput) Step() Step { return PreToolUse }

// Step implements Output.
func (PostToolUseOutput) Step() Step { return PostToolUse }

// Step implements Output.
func (PostToolUseFailureOutput) Step() Step { return PostToolUseFailure }

// Step implements Output.
func (SubagentStartOutput) Step() Step { return SubagentStart }

// Step implements Output.
func (SubagentStopOutput) Step() Step { return SubagentStop }

// Step implements Output.
func (BeforeShellExecutionOutput) Step() Step { return BeforeShellExecution }

// Step implements Output.
func (AfterShellExecutionOutput) Step() Step { return AfterShellExecution }

// Step implements Output.
func (BeforeMCPExecutionOutput) Step() Step { return BeforeMCPExecution }

// Step implements Output.
func (AfterMCPExecutionOutput) Step() Step { return AfterMCPExecution }

// Step implements Output.
func (BeforeReadFileOutput) Step() Step { return BeforeReadFile }

// Step implements Output.
func (AfterFileEditOutput) Step() Step { return AfterFileEdit }

// Step implements Output.
func (BeforeSubmitPromptOutput) Step() Step { return BeforeSubmitPrompt }

// Step implements Output.
func (PreCompactOutput) Step() Step { return PreCompact }

// Step implements Output.
func (StopOutput) Step() Step { return Stop }

// Step implements Output.
func (AfterAgentResponseOutput) Step() Step { return AfterAgentResponse }

// Step implements Output.
func (AfterAgentThoughtOutput) Step() Step { return AfterAgentThought }

// Step implements Output.
func (BeforeTabFileReadOutput) Step() Step { return BeforeTabFileRead }

// Step implements Output.
func (AfterTabFileEditOutput) Step() Step { return AfterTabFileEdit }
