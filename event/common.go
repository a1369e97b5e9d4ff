package event

// Common holds the input fields Cursor sends to every hook whatever the
// step (Cursor's hooks documentation, "Common schema"; docs/semantics.md).
// Every step input embeds it, so these keys sit at the top level of the
// payload beside the step's own.
//
// No field is omitempty: Cursor always sends every key, and hooks index
// them directly (a Python hook's payload["user_email"] raises on a missing
// key, while null is the documented "unknown"). Producers should set
// WorkspaceRoots to a non-nil slice so that it encodes as [] and not null.
type Common struct {
	// ConversationID is stable across the many turns of a conversation.
	ConversationID string `json:"conversation_id"`
	// GenerationID changes with every user message.
	GenerationID string `json:"generation_id"`
	// Model is the model configured for the composer that triggered the hook.
	Model string `json:"model"`
	// HookEventName is the step being run, e.g. "beforeShellExecution".
	HookEventName Step `json:"hook_event_name"`
	// CursorVersion is the host's version string (Cursor sends e.g. "1.7.2").
	CursorVersion string `json:"cursor_version"`
	// WorkspaceRoots lists the workspace's root folders (usually one).
	WorkspaceRoots []string `json:"workspace_roots"`
	// UserEmail is the authenticated user's address; nil encodes as null.
	UserEmail *string `json:"user_email"`
	// TranscriptPath is the conversation transcript file; nil (null) when
	// transcripts are disabled.
	TranscriptPath *string `json:"transcript_path"`
}

// Base returns c itself. Because every input embeds Common, the method is
// promoted to every *XxxInput, which lets code holding any Input fill the
// common fields without a type switch:
//
//	if b, ok := in.(interface{ Base() *Common }); ok { b.Base().Model = model }
func (c *Common) Base() *Common { return c }
