package event

// Values of the status fields of stop and subagentStop, and of
// sessionEnd's reason (which adds the two window ones).
const (
	StatusCompleted = "completed"
	StatusAborted   = "aborted"
	StatusError     = "error"

	ReasonWindowClose = "window_close"
	ReasonUserClose   = "user_close"
)

// Values of preCompact's trigger.
const (
	TriggerAuto   = "auto"
	TriggerManual = "manual"
)

// SessionStartInput is sent when a new composer conversation is created.
type SessionStartInput struct {
	Common
	// SessionID equals ConversationID.
	SessionID         string `json:"session_id"`
	IsBackgroundAgent bool   `json:"is_background_agent"`
	// ComposerMode is "agent", "ask" or "edit"; optional.
	ComposerMode string `json:"composer_mode,omitempty"`
}

// SessionEndInput is sent when a composer conversation ends.
type SessionEndInput struct {
	Common
	SessionID string `json:"session_id"`
	// Reason is StatusCompleted, StatusAborted, StatusError,
	// ReasonWindowClose or ReasonUserClose.
	Reason            string  `json:"reason"`
	DurationMS        float64 `json:"duration_ms"`
	IsBackgroundAgent bool    `json:"is_background_agent"`
	FinalStatus       string  `json:"final_status"`
	// ErrorMessage is set when Reason is StatusError.
	ErrorMessage string `json:"error_message,omitempty"`
}

// BeforeSubmitPromptInput is sent after the user hits send and before the
// prompt reaches the backend.
type BeforeSubmitPromptInput struct {
	Common
	Prompt      string       `json:"prompt"`
	Attachments []Attachment `json:"attachments"`
}

// PreCompactInput is sent before the context window is summarised.
type PreCompactInput struct {
	Common
	// Trigger is TriggerAuto or TriggerManual.
	Trigger string `json:"trigger"`
	// ContextUsagePercent is 0 to 100.
	ContextUsagePercent float64 `json:"context_usage_percent"`
	ContextTokens       int     `json:"context_tokens"`
	ContextWindowSize   int     `json:"context_window_size"`
	MessageCount        int     `json:"message_count"`
	MessagesToCompact   int     `json:"messages_to_compact"`
	IsFirstCompaction   bool    `json:"is_first_compaction"`
}

// StopInput is sent when the agent loop ends.
type StopInput struct {
	Common
	// Status is StatusCompleted, StatusAborted or StatusError.
	Status string `json:"status"`
	// LoopCount is how many follow-ups stop hooks have already triggered
	// in this conversation, starting at 0.
	LoopCount int `json:"loop_count"`
}

// AfterAgentResponseInput is sent when the agent completes an assistant
// message.
type AfterAgentResponseInput struct {
	Common
	Text string `json:"text"`
}

// AfterAgentThoughtInput is sent when the agent completes a thinking block.
type AfterAgentThoughtInput struct {
	Common
	Text string `json:"text"`
	// DurationMS is optional.
	DurationMS float64 `json:"duration_ms,omitempty"`
}

// Step implements Input.
func (SessionStartInput) Step() Step { return SessionStart }

// Step implements Input.
func (SessionEndInput) Step() Step { return SessionEnd }

// Step implements Input.
func (BeforeSubmitPromptInput) Step() Step { return BeforeSubmitPrompt }

// Step implements Input.
func (PreCompactInput) Step() Step { return PreCompact }

// Step implements Input.
func (StopInput) Step() Step { return Stop }

// Step implements Input.
func (AfterAgentResponseInput) Step() Step { return AfterAgentResponse }

// Step implements Input.
func (AfterAgentThoughtInput) Step() Step { return AfterAgentThought }
