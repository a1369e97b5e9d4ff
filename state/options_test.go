package state

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestOptionsFromEnv(t *testing.T) {
	vars := []string{"AGENTHOOKS_STATE_DIR", "AGENTHOOKS_LOG_RETENTION", "AGENTHOOKS_LOG_MAX_RECORDS", "AGENTHOOKS_REDACT", "AGENTHOOKS_REDACT_BYTES"}
	tests := []struct {
		name    string
		env     map[string]string
		want    Options
		wantErr string // every word must be in the error
	}{
		{name: "unset", want: Options{}},
		{name: "all set", env: map[string]string{
			"AGENTHOOKS_STATE_DIR": "/var/x", "AGENTHOOKS_LOG_RETENTION": "30d", "AGENTHOOKS_LOG_MAX_RECORDS": "500",
			"AGENTHOOKS_REDACT": "truncate", "AGENTHOOKS_REDACT_BYTES": "100",
		}, want: Options{Dir: "/var/x", Retention: 30 * 24 * time.Hour, MaxRecords: 500, Redact: RedactTruncate, TruncateBytes: 100}},
		{name: "go duration", env: map[string]string{"AGENTHOOKS_LOG_RETENTION": "36h"}, want: Options{Retention: 36 * time.Hour}},
		{name: "half days", env: map[string]string{"AGENTHOOKS_LOG_RETENTION": "1.5d"}, want: Options{Retention: 36 * time.Hour}},
		{name: "keep", env: map[string]string{"AGENTHOOKS_REDACT": "keep"}, want: Options{}},
		{name: "drop any case", env: map[string]string{"AGENTHOOKS_REDACT": "DROP"}, want: Options{Redact: RedactDrop}},
		{name: "bad retention", env: map[string]string{"AGENTHOOKS_LOG_RETENTION": "a month"}, wantErr: "AGENTHOOKS_LOG_RETENTION 30d"},
		{name: "zero retention", env: map[string]string{"AGENTHOOKS_LOG_RETENTION": "0"}, wantErr: "AGENTHOOKS_LOG_RETENTION positive"},
		{name: "negative retention", env: map[string]string{"AGENTHOOKS_LOG_RETENTION": "-1d"}, wantErr: "AGENTHOOKS_LOG_RETENTION positive"},
		{name: "huge retention", env: map[string]string{"AGENTHOOKS_LOG_RETENTION": "1e9d"}, wantErr: "AGENTHOOKS_LOG_RETENTION"},
		{name: "bad count", env: map[string]string{"AGENTHOOKS_LOG_MAX_RECORDS": "lots"}, wantErr: "AGENTHOOKS_LOG_MAX_RECORDS positive"},
		{name: "zero count", env: map[string]string{"AGENTHOOKS_LOG_MAX_RECORDS": "0"}, wantErr: "AGENTHOOKS_LOG_MAX_RECORDS"},
		{name: "bad redact", env: map[string]string{"AGENTHOOKS_REDACT": "hide"}, wantErr: "AGENTHOOKS_REDACT keep drop truncate"},
		{name: "bad bytes", env: map[string]string{"AGENTHOOKS_REDACT_BYTES": "-5"}, wantErr: "AGENTHOOKS_REDACT_BYTES positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range vars {
				t.Setenv(v, tt.env[v])
			}
			got, err := OptionsFromEnv()
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("no error, options %+v", got)
				}
				for _, w := range strings.Fields(tt.wantErr) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not say %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("AGENTHOOKS_STATE_DIR", "/explicit")
	if got := DefaultDir(); got != "/explicit" {
		t.Errorf("with AGENTHOOKS_STATE_DIR: %s", got)
	}
	t.Setenv("AGENTHOOKS_STATE_DIR", "")
	xdg := filepath.Join(t.TempDir(), "xdg")
	t.Setenv("XDG_STATE_HOME", xdg)
	if got := DefaultDir(); got != filepath.Join(xdg, "agenthooks") {
		t.Errorf("with XDG_STATE_HOME: %s", got)
	}
	t.Setenv("XDG_STATE_HOME", "relative/ignored")
	home := t.TempDir()
	t.Setenv("HOME", home)
	if runtime.GOOS == "linux" {
		if got, want := DefaultDir(), filepath.Join(home, ".local", "state", "agenthooks"); got != want {
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
