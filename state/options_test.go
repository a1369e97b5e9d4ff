package state

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestOptionsFromEnv(t *testing.T) {
	vars := []string{"AGENTHOOKS_STATE_DIR", "AGENTHOOKS_LOG_RETENTION", "AGENTHOOKS_LOG_MAX_RECORDS",
		"AGENTHOOKS_LOG_MAX_BYTES", "AGENTHOOKS_REDACT", "AGENTHOOKS_REDACT_BYTES"}
	tests := []struct {
		name string
		env  map[string]string
		want Options
		// One warning per entry, in order; every word must be in it.
		wantWarn []string
	}{
		{name: "unset", want: Options{}},
		{name: "all set", env: map[string]string{
			"AGENTHOOKS_STATE_DIR": "/var/x", "AGENTHOOKS_LOG_RETENTION": "30d", "AGENTHOOKS_LOG_MAX_RECORDS": "500",
			"AGENTHOOKS_LOG_MAX_BYTES": "8MiB", "AGENTHOOKS_REDACT": "truncate", "AGENTHOOKS_REDACT_BYTES": "100",
		}, want: Options{Dir: "/var/x", Retention: 30 * 24 * time.Hour, MaxRecords: 500, MaxBytes: 8 << 20,
			Redact: RedactTruncate, TruncateBytes: 100}},
		{name: "go duration", env: map[string]string{"AGENTHOOKS_LOG_RETENTION": "36h"}, want: Options{Retention: 36 * time.Hour}},
		{name: "half days", env: map[string]string{"AGENTHOOKS_LOG_RETENTION": "1.5d"}, want: Options{Retention: 36 * time.Hour}},
		{name: "redact", env: map[string]string{"AGENTHOOKS_REDACT": "redact"}, want: Options{Redact: RedactSecrets}},
		{name: "keep", env: map[string]string{"AGENTHOOKS_REDACT": "keep"}, want: Options{Redact: RedactKeep}},
		{name: "drop any case", env: map[string]string{"AGENTHOOKS_REDACT": "DROP"}, want: Options{Redact: RedactDrop}},
		{name: "bytes plain", env: map[string]string{"AGENTHOOKS_LOG_MAX_BYTES": "1000000"}, want: Options{MaxBytes: 1000000}},
		{name: "bytes G", env: map[string]string{"AGENTHOOKS_LOG_MAX_BYTES": "1g"}, want: Options{MaxBytes: 1 << 30}},
		{name: "bad retention", env: map[string]string{"AGENTHOOKS_LOG_RETENTION": "forever"},
			wantWarn: []string{`AGENTHOOKS_LOG_RETENTION="forever" 30d default`}},
		{name: "zero retention", env: map[string]string{"AGENTHOOKS_LOG_RETENTION": "0"}, wantWarn: []string{"AGENTHOOKS_LOG_RETENTION positive"}},
		{name: "negative retention", env: map[string]string{"AGENTHOOKS_LOG_RETENTION": "-1d"}, wantWarn: []string{"AGENTHOOKS_LOG_RETENTION positive"}},
		{name: "huge retention", env: map[string]string{"AGENTHOOKS_LOG_RETENTION": "1e9d"}, wantWarn: []string{"AGENTHOOKS_LOG_RETENTION"}},
		{name: "bad count", env: map[string]string{"AGENTHOOKS_LOG_MAX_RECORDS": "lots"}, wantWarn: []string{"AGENTHOOKS_LOG_MAX_RECORDS positive 100000"}},
		{name: "zero count", env: map[string]string{"AGENTHOOKS_LOG_MAX_RECORDS": "0"}, wantWarn: []string{"AGENTHOOKS_LOG_MAX_RECORDS"}},
		{name: "bad bytes", env: map[string]string{"AGENTHOOKS_LOG_MAX_BYTES": "big"}, wantWarn: []string{"AGENTHOOKS_LOG_MAX_BYTES 64MiB"}},
		{name: "zero bytes", env: map[string]string{"AGENTHOOKS_LOG_MAX_BYTES": "0M"}, wantWarn: []string{"AGENTHOOKS_LOG_MAX_BYTES positive"}},
		{name: "bad redact", env: map[string]string{"AGENTHOOKS_REDACT": "hide"}, wantWarn: []string{"AGENTHOOKS_REDACT redact keep drop truncate default"}},
		{name: "bad redact bytes", env: map[string]string{"AGENTHOOKS_REDACT_BYTES": "-5"}, wantWarn: []string{"AGENTHOOKS_REDACT_BYTES positive"}},
		{
			// Each bad variable warns and takes its default; the good
			// ones still count.
			name: "several bad, some good",
			env: map[string]string{"AGENTHOOKS_STATE_DIR": "/var/x", "AGENTHOOKS_LOG_RETENTION": "forever",
				"AGENTHOOKS_LOG_MAX_RECORDS": "50", "AGENTHOOKS_REDACT": "hide", "AGENTHOOKS_REDACT_BYTES": "x"},
			want:     Options{Dir: "/var/x", MaxRecords: 50},
			wantWarn: []string{"AGENTHOOKS_LOG_RETENTION", "AGENTHOOKS_REDACT=", "AGENTHOOKS_REDACT_BYTES"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range vars {
				t.Setenv(v, tt.env[v])
			}
			got, warnings := OptionsFrom(os.Getenv)
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if len(warnings) != len(tt.wantWarn) {
				t.Fatalf("warnings %q, want %d", warnings, len(tt.wantWarn))
			}
			for i, w := range tt.wantWarn {
				for _, word := range strings.Fields(w) {
					if !strings.Contains(warnings[i].Error(), word) {
						t.Errorf("warning %q does not say %q", warnings[i], word)
					}
				}
			}
			// Whatever the environment, a store opens with these options.
			got.Dir = t.TempDir()
			s, err := Open(context.Background(), got)
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
		})
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"1": 1, "512": 512, "1K": 1024, "1kb": 1024, "2KiB": 2048, "64MiB": 64 << 20, "64M": 64 << 20,
		"1.5G": 3 << 29, "10B": 10, " 3 MB ": 3 << 20,
	} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "M", "big", "1T", "NaN", "Inf", "1e30G", "--1"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		}
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("AGENTHOOKS_STATE_DIR", "/explicit")
	if got := DefaultDir(os.Getenv); got != "/explicit" {
		t.Errorf("with AGENTHOOKS_STATE_DIR: %s", got)
	}
	t.Setenv("AGENTHOOKS_STATE_DIR", "")
	xdg := filepath.Join(t.TempDir(), "xdg")
	t.Setenv("XDG_STATE_HOME", xdg)
	if got := DefaultDir(os.Getenv); got != filepath.Join(xdg, "agenthooks") {
		t.Errorf("with XDG_STATE_HOME: %s", got)
	}
	t.Setenv("XDG_STATE_HOME", "relative/ignored")
	home := t.TempDir()
	t.Setenv("HOME", home)
	if runtime.GOOS == "linux" {
		if got, want := DefaultDir(os.Getenv), filepath.Join(home, ".local", "state", "agenthooks"); got != want {
			t.Errorf("default: %s, want %s", got, want)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"30d": 30 * 24 * time.Hour, "0.5d": 12 * time.Hour, "90m": 90 * time.Minute, "1h30m": 90 * time.Minute,
	} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "d", "3x", "NaNd", "infd", "1d2h"} {
		if got, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) = %v, want an error", in, got)
		}
	}
}
