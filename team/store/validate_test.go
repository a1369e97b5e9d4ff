package store

import (
	"math"
	"strings"
	"testing"
)

func TestValidateHook(t *testing.T) {
	ok := sampleHook("guard.sh")
	if err := ValidateHook(ok, DefaultMaxScriptBytes); err != nil {
		t.Fatalf("sample hook: %v", err)
	}
	for _, name := range []string{"a", "block push.sh", "x..", "ü.py", strings.Repeat("a", 255)} {
		h := ok
		h.ScriptName = name
		if name == "x.." {
			continue // ".." anywhere is refused, see below
		}
		if err := ValidateHook(h, DefaultMaxScriptBytes); err != nil {
			t.Errorf("script_name %q: %v", name, err)
		}
	}
	cases := []struct {
		field string
		edit  func(*Hook)
	}{
		{"hook_step", func(h *Hook) { h.Step = "" }},
		{"hook_step", func(h *Hook) { h.Step = "BeforeShellExecution" }},
		{"script_name", func(h *Hook) { h.ScriptName = "" }},
		{"script_name", func(h *Hook) { h.ScriptName = "../x.sh" }},
		{"script_name", func(h *Hook) { h.ScriptName = "a/b.sh" }},
		{"script_name", func(h *Hook) { h.ScriptName = `a\b.sh` }},
		{"script_name", func(h *Hook) { h.ScriptName = ".." }},
		{"script_name", func(h *Hook) { h.ScriptName = "a..b" }},
		{"script_name", func(h *Hook) { h.ScriptName = ".hidden" }},
		{"script_name", func(h *Hook) { h.ScriptName = "a\x00b" }},
		{"script_name", func(h *Hook) { h.ScriptName = "a\nb" }},
		{"script_name", func(h *Hook) { h.ScriptName = "c:x" }},
		{"script_name", func(h *Hook) { h.ScriptName = "x." }},
		{"script_name", func(h *Hook) { h.ScriptName = "Hooks.JSON" }},
		{"script_name", func(h *Hook) { h.ScriptName = strings.Repeat("a", 256) }},
		{"script_name", func(h *Hook) { h.ScriptName = "\xff" }},
		{"operating_systems", func(h *Hook) { h.OperatingSystems = []string{"linux"} }},
		{"operating_systems", func(h *Hook) { h.OperatingSystems = []string{"macOS"} }},
		{"operating_systems", func(h *Hook) { h.OperatingSystems = []string{"Linux", "Linux"} }},
		{"script_content", func(h *Hook) { h.ScriptContent = strings.Repeat("x", DefaultMaxScriptBytes+1) }},
		{"script_content", func(h *Hook) { h.ScriptContent = "a\x00b" }},
		{"script_content", func(h *Hook) { h.ScriptContent = "\xff" }},
		{"matcher", func(h *Hook) { h.Matcher = "(unclosed" }},
		{"timeout_seconds", func(h *Hook) { h.TimeoutSeconds = -1 }},
		{"timeout_seconds", func(h *Hook) { h.TimeoutSeconds = math.NaN() }},
		{"timeout_seconds", func(h *Hook) { h.TimeoutSeconds = math.Inf(1) }},
		{"timeout_seconds", func(h *Hook) { h.TimeoutSeconds = 1e10 }},
		{"timeout_seconds", func(h *Hook) { h.TimeoutSeconds = 1e-10 }},
		{"script_name", func(h *Hook) { h.ScriptName, h.OperatingSystems = "aux.ps1", nil }},
		{"script_name", func(h *Hook) { h.ScriptName, h.OperatingSystems = "CON", []string{"Windows"} }},
		{"script_name", func(h *Hook) { h.ScriptName, h.OperatingSystems = "Lpt9.bat", []string{"Linux", "Windows"} }},
	}
	for _, c := range cases {
		h := ok
		c.edit(&h)
		err := ValidateHook(h, DefaultMaxScriptBytes)
		ve, isVE := err.(*ValidationError)
		if !isVE || ve.Field != c.field || ve.Problem == "" || ve.Fix == "" {
			t.Errorf("%+v: got %v, want a ValidationError on %s with a fix", h.ScriptName, err, c.field)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.field+": ") || !strings.Contains(err.Error(), "(fix: ") {
			t.Errorf("message %q: want the field first and a fix", err)
		}
	}
	h := ok
	h.ScriptContent = strings.Repeat("x", DefaultMaxScriptBytes)
	if err := ValidateHook(h, DefaultMaxScriptBytes); err != nil {
		t.Errorf("script of exactly the limit: %v", err)
	}
	h.OperatingSystems = nil
	if err := ValidateHook(h, DefaultMaxScriptBytes); err != nil {
		t.Errorf("no operating systems (every system): %v", err)
	}
}

// A name only Windows refuses says how to keep it: aim the hook elsewhere.
// Any other bad name is told only to be a plain file name.
func TestScriptNameFix(t *testing.T) {
	cases := map[string]bool{"aux.ps1": true, "CON": true, "../x.sh": false, "a/b.sh": false}
	for name, windowsOnly := range cases {
		err := validateScriptName(name, nil)
		ve, ok := err.(*ValidationError)
		if !ok {
			t.Fatalf("%s: %v", name, err)
		}
		if got := strings.Contains(ve.Fix, "operating_systems"); got != windowsOnly {
			t.Errorf("%s: fix %q; mentions operating_systems %v, want %v", name, ve.Fix, got, windowsOnly)
		}
	}
}
