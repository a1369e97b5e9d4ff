package state

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/internal/settings"
)

// OptionsFrom reads the options from the environment getenv reads:
//
//	AGENTHOOKS_STATE_DIR        the directory (default DefaultDir)
//	AGENTHOOKS_LOG_RETENTION    a duration: 72h, 30d
//	AGENTHOOKS_LOG_MAX_RECORDS  a positive count
//	AGENTHOOKS_LOG_MAX_BYTES    a positive size: 64MiB, 500M, 1G, 1048576
//	AGENTHOOKS_REDACT           redact, keep, drop or truncate
//	AGENTHOOKS_REDACT_BYTES     a positive count: each big field's cap
//	                            (redact) or each part's (truncate)
//
// Unset or empty variables take the defaults. A bad value takes its
// variable's default too, and adds a warning that names the variable, says
// what it accepts and what is used instead: a typo in a variable about the
// log must not stop the hooks from running. The warnings are in the order
// of the list above, one per bad variable.
func OptionsFrom(getenv func(string) string) (Options, []error) {
	var o Options
	var warnings []error
	warn := func(name, v, want, def string) {
		warnings = append(warnings, fmt.Errorf("%s=%q: want %s; using the default, %s", name, v, want, def))
	}
	o.Dir = getenv(settings.StateDir)
	if v := getenv(settings.LogRetention); v != "" {
		if d, err := ParseDuration(v); err == nil && d > 0 {
			o.Retention = d
		} else {
			warn("AGENTHOOKS_LOG_RETENTION", v, "a positive duration such as 72h or 30d", "30d")
		}
	}
	if v := getenv(settings.LogMaxRecords); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			o.MaxRecords = n
		} else {
			warn("AGENTHOOKS_LOG_MAX_RECORDS", v, "a positive whole number such as 100000", strconv.Itoa(DefaultMaxRecords))
		}
	}
	if v := getenv(settings.LogMaxBytes); v != "" {
		if n, err := ParseSize(v); err == nil && n > 0 {
			o.MaxBytes = n
		} else {
			warn("AGENTHOOKS_LOG_MAX_BYTES", v, "a positive size such as 64MiB, 500M or 1G", "64MiB")
		}
	}
	switch v := getenv(settings.Redact); strings.ToLower(v) {
	case "":
	case "redact":
		o.Redact = RedactSecrets
	case "keep":
		o.Redact = RedactKeep
	case "drop":
		o.Redact = RedactDrop
	case "truncate":
		o.Redact = RedactTruncate
	default:
		warn("AGENTHOOKS_REDACT", v, "redact, keep, drop or truncate", "redact")
	}
	if v := getenv(settings.RedactBytes); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			o.TruncateBytes = n
		} else {
			warn("AGENTHOOKS_REDACT_BYTES", v, "a positive whole number such as 4096", strconv.Itoa(DefaultTruncateBytes))
		}
	}
	return o, warnings
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

// sizeUnits are the suffixes ParseSize knows, longest first so that "MiB"
// is not read as "B". K, M and G are binary too: a size limit is thought
// of in the units ls and du print.
var sizeUnits = []struct {
	suffix string
	n      int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30},
	{"B", 1},
}

// ParseSize parses a number of bytes with an optional unit: "1048576",
// "512K", "64MiB", "1.5G". Units are case-insensitive and binary.
func ParseSize(s string) (int64, error) {
	num, mult := strings.TrimSpace(s), int64(1)
	for _, u := range sizeUnits {
		if len(num) > len(u.suffix) && strings.EqualFold(num[len(num)-len(u.suffix):], u.suffix) {
			num, mult = strings.TrimSpace(num[:len(num)-len(u.suffix)]), u.n
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f*float64(mult) >= math.MaxInt64 {
		return 0, fmt.Errorf("invalid size %q: want a number of bytes with an optional unit, such as 64MiB, 500M or 1G", s)
	}
	return int64(f * float64(mult)), nil
}
