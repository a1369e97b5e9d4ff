package event

import (
	"encoding/json"
	"fmt"
)

// Values of Attachment.Type.
const (
	AttachmentFile = "file"
	AttachmentRule = "rule"
)

// BeforeReadFileInput is sent before the agent reads a file.
type BeforeReadFileInput struct {
	Common
	// FilePath is absolute.
	FilePath string `json:"file_path"`
	// Content is the whole file.
	Content     string       `json:"content"`
	Attachments []Attachment `json:"attachments"`
}

// AfterFileEditInput is sent after the agent edited a file.
type AfterFileEditInput struct {
	Common
	FilePath string     `json:"file_path"`
	Edits    []FileEdit `json:"edits"`
}

// BeforeTabFileReadInput is sent before Tab reads a file. Unlike
// beforeReadFile it has no attachments: Tab has no prompt.
type BeforeTabFileReadInput struct {
	Common
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

// AfterTabFileEditInput is sent after Tab edited a file.
type AfterTabFileEditInput struct {
	Common
	FilePath string    `json:"file_path"`
	Edits    []TabEdit `json:"edits"`
}

// Attachment is a context attachment of the prompt: a file or a rule.
type Attachment struct {
	// Type is AttachmentFile or AttachmentRule.
	Type     string `json:"type"`
	FilePath string `json:"file_path"`
}

// UnmarshalJSON also accepts "filePath", the spelling of an older edition
// of Cursor's documentation (docs/semantics.md), when "file_path" is
// absent, so payloads from older hosts decode; marshalling always writes
// "file_path".
func (a *Attachment) UnmarshalJSON(data []byte) error {
	var w struct {
		Type     string  `json:"type"`
		FilePath *string `json:"file_path"`
		Legacy   *string `json:"filePath"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("attachment: %w", err)
	}
	*a = Attachment{Type: w.Type}
	switch {
	case w.FilePath != nil:
		a.FilePath = *w.FilePath
	case w.Legacy != nil:
		a.FilePath = *w.Legacy
	}
	return nil
}

// FileEdit is one replacement the agent made.
type FileEdit struct {
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
}

// TabEdit is one replacement Tab made, located precisely.
type TabEdit struct {
	OldString string    `json:"old_string"`
	NewString string    `json:"new_string"`
	Range     EditRange `json:"range"`
	// OldLine and NewLine are the whole line before and after the edit.
	OldLine string `json:"old_line"`
	NewLine string `json:"new_line"`
}

// EditRange locates a Tab edit. The names are those of the editor's
// (Monaco's) range, whose lines and columns count from 1.
type EditRange struct {
	StartLineNumber int `json:"start_line_number"`
	StartColumn     int `json:"start_column"`
	EndLineNumber   int `json:"end_line_number"`
	EndColumn       int `json:"end_column"`
}

// Step implements Input.
func (BeforeReadFileInput) Step() Step { return BeforeReadFile }

// Step implements Input.
func (AfterFileEditInput) Step() Step { return AfterFileEdit }

// Step implements Input.
func (BeforeTabFileReadInput) Step() Step { return BeforeTabFileRead }

// Step implements Input.
func (AfterTabFileEditInput) Step() Step { return AfterTabFileEdit }
