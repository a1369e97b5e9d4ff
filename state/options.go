package state

import (
	"fmt"
	"time"

	"github.com/agenthooks/agenthooks/internal/settings"
)

// Defaults for the zero fields of Options.
const (
	DefaultRetention     = 30 * 24 * time.Hour
	DefaultMaxRecords    = 100_000
	DefaultMaxBytes      = 64 << 20
	DefaultTruncateBytes = 4096
	// DefaultLogWait is the lock wait a caller that must not be held up
	// (`agenthooks run`, answering an agent) gives its log writes: long
	// enough for other processes' writes, which last milliseconds, short
	// enough that no one notices it.
	DefaultLogWait = 50 * time.Millisecond
)

// Redaction says what Write keeps of a record's payload, response and
// stderr, which can hold secrets (file contents, prompts, tokens) and
// whole files.
type Redaction string

// The redaction modes.
const (
	// RedactSecrets, the default (also spelled ""), replaces secrets with
	// [REDACTED:kind] markers and cuts the big content fields to
	// TruncateBytes (see redact.go for what counts as either).
	RedactSecrets Redaction = "redact"
	// RedactKeep keeps them whole: no redaction, no cap.
	RedactKeep Redaction = "keep"
	// RedactDrop stores none of them.
	RedactDrop Redaction = "drop"
	// RedactTruncate redacts secrets as RedactSecrets does, then keeps the
	// first TruncateBytes of each whole payload, response and stderr.
	RedactTruncate Redaction = "truncate"
)

// Options configures a Store. The zero value is the default store in
// DefaultDir.
type Options struct {
	// Dir holds state.db; "" means DefaultDir in the process's
	// environment.
	Dir string
	// Retention is how long records (and idle sessions) are kept; zero
	// means DefaultRetention.
	Retention time.Duration
	// MaxRecords bounds the number of records kept; zero means
	// DefaultMaxRecords. Pruning runs every few inserts, so between two
	// prunes the log can hold up to a tenth more.
	MaxRecords int
	// MaxBytes bounds the log's stored size: payloads, responses, stderr
	// and the other fields, plus an estimate of SQLite's bookkeeping per
	// record. Before a write would pass it, the oldest runs are pruned
	// until a tenth of it is free. Zero means DefaultMaxBytes.
	MaxBytes int64
	// Redact is applied by Write; "" means RedactSecrets.
	Redact Redaction
	// TruncateBytes is what RedactTruncate keeps of each part, and what
	// RedactSecrets keeps of each big content field; zero means
	// DefaultTruncateBytes.
	TruncateBytes int
	// LogWait, when positive, is how long Write waits for the database
	// (another process's write) before it appends the records to the
	// spool file instead. Zero waits up to BusyTimeout.
	LogWait time.Duration
	// SessionWait, when positive, bounds how long a session update waits
	// for the database; past it the update fails (the caller warns and
	// the run goes on without it). Zero waits up to BusyTimeout.
	SessionWait time.Duration
}

// withDefaults fills the zero fields and rejects what cannot work.
func (o Options) withDefaults() (Options, error) {
	if o.Dir == "" {
		o.Dir = DefaultDir(settings.Process())
	}
	if o.Dir == "" {
		return o, fmt.Errorf("no state directory: no home directory found; set AGENTHOOKS_STATE_DIR to a private directory")
	}
	switch {
	case o.Retention < 0:
		return o, fmt.Errorf("state options: Retention %v is negative; use a positive duration or 0 for %v", o.Retention, DefaultRetention)
	case o.Retention == 0:
		o.Retention = DefaultRetention
	}
	switch {
	case o.MaxRecords < 0:
		return o, fmt.Errorf("state options: MaxRecords %d is negative; use a positive count or 0 for %d", o.MaxRecords, DefaultMaxRecords)
	case o.MaxRecords == 0:
		o.MaxRecords = DefaultMaxRecords
	}
	switch {
	case o.MaxBytes < 0:
		return o, fmt.Errorf("state options: MaxBytes %d is negative; use a positive size or 0 for %d", o.MaxBytes, DefaultMaxBytes)
	case o.MaxBytes == 0:
		o.MaxBytes = DefaultMaxBytes
	}
	switch {
	case o.TruncateBytes < 0:
		return o, fmt.Errorf("state options: TruncateBytes %d is negative; use a positive count or 0 for %d", o.TruncateBytes, DefaultTruncateBytes)
	case o.TruncateBytes == 0:
		o.TruncateBytes = DefaultTruncateBytes
	}
	if o.SessionWait < 0 {
		return o, fmt.Errorf("state options: SessionWait %v is negative; use a positive duration or 0 for %v", o.SessionWait, BusyTimeout)
	}
	if o.LogWait < 0 {
		return o, fmt.Errorf("state options: LogWait %v is negative; use a positive duration, or 0 to wait up to %v", o.LogWait, BusyTimeout)
	}
	switch o.Redact {
	case "":
		o.Redact = RedactSecrets
	case RedactSecrets, RedactKeep, RedactDrop, RedactTruncate:
	default:
		return o, fmt.Errorf("state options: unknown Redact %q; use %q, %q, %q or %q", o.Redact, RedactSecrets, RedactKeep, RedactDrop, RedactTruncate)
	}
	return o, nil
}
