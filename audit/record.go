// Package audit is the execution log: one Record per hook execution, the
// last 100 kept in memory as Cursor does, and every record handed to a
// Sink so a host can keep them durably.
package audit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"
)

// Record is one hook execution, with the fields of Cursor's execution log
// plus what agenthooks adds (file, failure kind, the merged decision).
type Record struct {
	ID             string          `json:"id"`
	Time           time.Time       `json:"time"`
	Step           string          `json:"step"`
	ConversationID string          `json:"conversation_id,omitempty"`
	Command        string          `json:"command"`
	Type           string          `json:"type"`
	Source         string          `json:"source"`
	File           string          `json:"file"`
	Index          int             `json:"index"`
	Payload        json.RawMessage `json:"payload,omitempty"`
	// PayloadChecked: Payload is known to be one JSON value nested at
	// most MaxDepth levels (the engine checked it as it read it), so a
	// sink need not scan it again; a payload can be megabytes.
	PayloadChecked bool            `json:"-"`
	Response       json.RawMessage `json:"response,omitempty"`
	DurationMS     float64         `json:"duration_ms"`
	ExitCode       int             `json:"exit_code"`
	Stderr         string          `json:"stderr,omitempty"`
	// Failure is "" for a valid execution, else one of the failure kinds
	// (invalid_output, exit_status, timeout, spawn_error, output_too_large,
	// model_error, canceled, unsupported).
	Failure string `json:"failure,omitempty"`
	// Outcome is what the hook said, as the merge saw it: "allow", "deny",
	// "ask", "block", "continue", "none", "failed", "fail-closed".
	Outcome string `json:"outcome"`
	// Decision is the merged decision of the whole run it belonged to.
	Decision string `json:"decision"`
	// Agent names the agent the step came from ("claude", "codex", …:
	// run --from AGENT); empty for a step in Cursor's own format.
	Agent string `json:"agent,omitempty"`
}

// MaxDepth is the deepest nesting of a checked payload: encoding/json's
// own limit, so that any reader of the log can decode what it stores.
const MaxDepth = 10000

// NewID returns an id of the form Cursor uses: a timestamp and a random
// suffix, sortable by time.
func NewID(t time.Time) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return strconv.FormatInt(t.UnixMilli(), 10) + "-" + hex.EncodeToString(b[:])
}

// Sink receives every record. Write is called once per run with all of
// that run's records, after the merge, so a slow sink never delays a hook.
// The records of a run carry the same Payload (the run's), which a sink
// can store once for all of them.
type Sink interface {
	Write(ctx context.Context, records []Record) error
}
