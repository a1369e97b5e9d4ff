package state

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
)

// Defaults for the zero fields of Options.
const (
	DefaultRetention     = 30 * 24 * time.Hour
	DefaultMaxRecords    = 100_000
	DefaultTruncateBytes = 4096
)

// Redaction says what Write keeps of a record's payload, response and
// stderr, which can hold secrets (file contents, prompts, tokens).
type Redaction string

// The redaction modes.
const (
	// RedactKeep keeps them whole: the user owns the machine.
	RedactKeep Redaction = ""
	// RedactDrop stores none of them.
	RedactDrop Redaction = "drop"
	// RedactTruncate keeps the first TruncateBytes of each.
	RedactTruncate Redaction = "truncate"
)

// Options configures a Store. The zero value is the default store in
// DefaultDir.
type Options struct {
	// Dir holds state.db; "" means DefaultDir().
	Dir string
	// Retention is how long records (and idle sessions) are kept; zero
	// means DefaultRetention.
	Retention time.Duration
	// MaxRecords bounds the number of records kept; zero means
	// DefaultMaxRecords. Pruning runs every few inserts, so between two
	// prunes the log can hold up to a tenth more.
	MaxRecords int
	// Redact is applied by Write.
	Redact Redaction
	// TruncateBytes is what RedactTruncate keeps; zero means
	// DefaultTruncateBytes.
	TruncateBytes int
}

// withDefaults fills the zero fields and rejects what cannot work.
func (o Options) withDefaults() (Options, error) {
	if o.Dir == "" {
		o.Dir = DefaultDir()
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
	case o.TruncateBytes < 0:
		return o, fmt.Errorf("state options: TruncateBytes %d is negative; use a positive count or 0 for %d", o.TruncateBytes, DefaultTruncateBytes)
	case o.TruncateBytes == 0:
		o.TruncateBytes = DefaultTruncateBytes
	}
	switch o.Redact {
	case RedactKeep, RedactDrop, RedactTruncate:
	default:
		return o, fmt.Errorf("state options: unknown Redact %q; use %q, %q or %q", o.Redact, RedactKeep, RedactDrop, RedactTruncate)
	}
	return o, nil
}

// OptionsFromEnv reads the options from the environment:
//
//	AGENTHOOKS_STATE_DIR        the directory (default DefaultDir())
//	AGENTHOOKS_LOG_RETENTION    a duration: 72h, 30d
//	AGENTHOOKS_LOG_MAX_RECORDS  a positive count
//	AGENTHOOKS_REDACT           keep, drop or truncate
//	AGENTHOOKS_REDACT_BYTES     a positive count, for truncate
//
// Unset or empty variables take the defaults. A bad value is an error that
// names the variable and says what it accepts.
func OptionsFromEnv() (Options, error) {
	var o Options
	o.Dir = os.Getenv("AGENTHOOKS_STATE_DIR")
	if v := os.Getenv("AGENTHOOKS_LOG_RETENTION"); v != "" {
		d, err := ParseDuration(v)
		if err != nil || d <= 0 {
			return o, fmt.Errorf("AGENTHOOKS_LOG_RETENTION=%q: want a positive duration such as 72h or 30d", v)
		}
		o.Retention = d
	}
	var err error
	if o.MaxRecords, err = positiveEnv("AGENTHOOKS_LOG_MAX_RECORDS", "100000"); err != nil {
		return o, err
	}
	if o.TruncateBytes, err = positiveEnv("AGENTHOOKS_REDACT_BYTES", "4096"); err != nil {
		return o, err
	}
	switch v := os.Getenv("AGENTHOOKS_REDACT"); strings.ToLower(v) {
	case "", "keep":
		o.Redact = RedactKeep
	case "drop":
		o.Redact = RedactDrop
	case "truncate":
		o.Redact = RedactTruncate
	default:
		return o, fmt.Errorf("AGENTHOOKS_REDACT=%q: want keep, drop or truncate", v)
	}
	return o, nil
}

// positiveEnv reads a positive integer variable; 0 when unset.
func positiveEnv(name, example string) (int, error) {
	v := os.Getenv(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q: want a positive whole number such as %s", name, v, example)
	}
	return n, nil
}

// ParseDuration parses a Go duration ("90m", "72h") or a number of days
// ("30d", "1.5d"): retention is naturally spoken of in days, which Go's
// time.ParseDuration lacks.
func ParseDuration(s string) (time.Duration, error) {
	const maxDays = float64(math.MaxInt64) / float64(24*time.Hour)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || math.IsNaN(n) || math.Abs(n) >= maxDays {
			return 0, fmt.Errorf("invalid duration %q: want a number of days such as 30d, or a Go duration such as 72h", s)
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: want a Go duration such as 72h or 90m, or days such as 30d", s)
	}
	return d, nil
}
