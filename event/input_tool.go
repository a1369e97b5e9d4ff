package event

import "encoding/json"

// Values of postToolUseFailure's failure_type.
const (
	FailureError            = "error"
	FailureTimeout          = "timeout"
	FailurePermissionDenied = "permission_denied"
)

// PreToolUseInput is sent before any tool runs (Shell, Read, Write, MCP,
// Task, …).
type PreToolUseInput struct {
	Common
	// ToolName is what matchers test: "Shell", "Read", "MCP:<tool>", ….
	ToolName string `json:"tool_name"`
	// ToolInput is the tool's parameters as a JSON object, kept raw
	// because its shape depends on the tool.
	ToolInput json.RawMessage `json:"tool_input"`
	ToolUseID string          `json:"tool_use_id"`
	Cwd       string          `json:"cwd"`
	// AgentMessage is the agent's text accompanying the call, if any.
	AgentMessage string `json:"agent_message,omitempty"`
}

// PostToolUseInput is sent after a tool ran successfully.
type PostToolUseInput struct {
	Common
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	// ToolOutput is the tool's result payload, JSON-encoded into a string.
	ToolOutput string `json:"tool_output"`
	ToolUseID  string `json:"tool_use_id"`
	Cwd        string `json:"cwd"`
	// Duration is in milliseconds.
	Duration float64 `json:"duration"`
}

// PostToolUseFailureInput is sent when a tool fails, times out or is
// denied.
type PostToolUseFailureInput struct {
	Common
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolUseID    string          `json:"tool_use_id"`
	Cwd          string          `json:"cwd"`
	ErrorMessage string          `json:"error_message"`
	// FailureType is FailureError, FailureTimeout or FailurePermissionDenied.
	FailureType string `json:"failure_type"`
	// Duration is in milliseconds, until the failure.
	Duration float64 `json:"duration"`
	// IsInterrupt reports a user interrupt or cancellation.
	IsInterrupt bool `json:"is_interrupt"`
}

// SubagentStartInput is sent before a subagent (Task tool) is spawned.
type SubagentStartInput struct {
	Common
	SubagentID string `json:"subagent_id"`
	// SubagentType is what matchers test: "generalPurpose", "explore", ….
	SubagentType         string `json:"subagent_type"`
	Task                 string `json:"task"`
	ParentConversationID string `json:"parent_conversation_id"`
	ToolCallID           string `json:"tool_call_id"`
	SubagentModel        string `json:"subagent_model"`
	IsParallelWorker     bool   `json:"is_parallel_worker"`
	// GitBranch is optional.
	GitBranch string `json:"git_branch,omitempty"`
}

// SubagentStopInput is sent when a subagent completes, errors or is
// aborted.
type SubagentStopInput struct {
	Common
	SubagentType string `json:"subagent_type"`
	// Status is StatusCompleted, StatusError or StatusAborted.
	Status        string  `json:"status"`
	Task          string  `json:"task"`
	Description   string  `json:"description"`
	Summary       string  `json:"summary"`
	DurationMS    float64 `json:"duration_ms"`
	MessageCount  int     `json:"message_count"`
	ToolCallCount int     `json:"tool_call_count"`
	// LoopCount is how many subagentStop follow-ups have already been
	// triggered for this subagent, starting at 0.
	LoopCount     int      `json:"loop_count"`
	ModifiedFiles []string `json:"modified_files"`
	// AgentTranscriptPath is the subagent's own transcript; nil encodes as
	// null, as documented.
	AgentTranscriptPath *string `json:"agent_transcript_path"`
}

// BeforeShellExecutionInput is sent before a shell command runs.
type BeforeShellExecutionInput struct {
	Common
	Command string `json:"command"`
	Cwd     string `json:"cwd"`
	Sandbox bool   `json:"sandbox"`
}

// AfterShellExecutionInput is sent after a shell command ran.
type AfterShellExecutionInput struct {
	Common
	Command string `json:"command"`
	// Output is the full terminal output.
	Output string `json:"output"`
	// Duration is in milliseconds, excluding the wait for approval.
	Duration float64 `json:"duration"`
	Sandbox  bool    `json:"sandbox"`
	// Cwd is not in the current documentation but Cursor's implementation
	// sends it for both shell steps (docs/semantics.md); optional so that
	// payloads without it round-trip.
	Cwd string `json:"cwd,omitempty"`
}

// BeforeMCPExecutionInput is sent before an MCP tool runs. Exactly one of
// URL (HTTP servers) and Command (stdio servers) is normally set.
type BeforeMCPExecutionInput struct {
	Common
	ToolName string `json:"tool_name"`
	// ToolInput is the tool's parameters as a JSON-encoded string, not an
	// object: that is how Cursor sends it.
	ToolInput string `json:"tool_input"`
	URL       string `json:"url,omitempty"`
	Command   string `json:"command,omitempty"`
}

// AfterMCPExecutionInput is sent after an MCP tool ran.
type AfterMCPExecutionInput struct {
	Common
	ToolName string `json:"tool_name"`
	// ToolInput is the JSON-encoded parameters string, as before the call.
	ToolInput string `json:"tool_input"`
	// ResultJSON is the tool's response, JSON-encoded into a string.
	ResultJSON string `json:"result_json"`
	// Duration is in milliseconds, excluding the wait for approval.
	Duration float64 `json:"duration"`
	// URL and Command identify the server as in BeforeMCPExecutionInput;
	// Cursor's implementation sends url for both MCP steps
	// (docs/semantics.md).
	URL     string `json:"url,omitempty"`
	Command string `json:"command,omitempty"`
}

// Step implements Input.
func (PreToolUseInput) Step() Step { return PreToolUse }

// Step implements Input.
func (PostToolUseInput) Step() Step { return PostToolUse }

// Step implements Input.
func (PostToolUseFailureInput) Step() Step { return PostToolUseFailure }

// Step implements Input.
func (SubagentStartInput) Step() Step { return SubagentStart }

// Step implements Input.
func (SubagentStopInput) Step() Step { return SubagentStop }

// Step implements Input.
func (BeforeShellExecutionInput) Step() Step { return BeforeShellExecution }

// Step implements Input.
func (AfterShellExecutionInput) Step() Step { return AfterShellExecution }

// Step implements Input.
func (BeforeMCPExecutionInput) Step() Step { return BeforeMCPExecution }

// Step implements Input.
func (AfterMCPExecutionInput) Step() Step { return AfterMCPExecution }
