package config

import "testing"

func TestProblemError(t *testing.T) {
	tests := []struct {
		name string
		p    Problem
		want string
	}{
		{
			name: "error with position, path and fix",
			p: Problem{File: "/home/u/.cursor/hooks.json", Pointer: "/hooks/beforeShellExecution/1/timeout", Line: 7, Col: 18,
				Message: "must be a positive number of seconds, got -3", Fix: `use e.g. "timeout": 30`},
			want: `/home/u/.cursor/hooks.json:7:18: hooks.beforeShellExecution[1].timeout: must be a positive number of seconds, got -3 (fix: use e.g. "timeout": 30)`,
		},
		{
			name: "warning",
			p:    Problem{File: "h.json", Pointer: "/hooks/foo", Line: 2, Col: 3, Severity: Warning, Message: "unknown step", Fix: "x"},
			want: `h.json:2:3: warning: hooks.foo: unknown step (fix: x)`,
		},
		{
			name: "whole file, no fix",
			p:    Problem{File: "h.json", Message: "cannot read"},
			want: `h.json: cannot read`,
		},
		{
			name: "document root",
			p:    Problem{File: "h.json", Line: 1, Col: 1, Message: "empty", Fix: "f"},
			want: `h.json:1:1: empty (fix: f)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Error(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestReadablePath(t *testing.T) {
	tests := []struct{ pointer, want string }{
		{"", ""},
		{"/hooks", "hooks"},
		{"/hooks/stop/0/loop_limit", "hooks.stop[0].loop_limit"},
		{"/hooks/my step/2", `hooks["my step"][2]`},
		{"/hooks/a~1b~0c", `hooks["a/b~c"]`},
		{"/x/$ok_1", "x.$ok_1"},
		{"/0", "[0]"},
	}
	for _, tt := range tests {
		if got := ReadablePath(tt.pointer); got != tt.want {
			t.Errorf("ReadablePath(%q) = %q, want %q", tt.pointer, got, tt.want)
		}
	}
	if got := pointerJoin("/hooks", "a/b~c"); got != "/hooks/a~1b~0c" {
		t.Errorf("pointerJoin escaped to %q", got)
	}
}

func TestSeverityString(t *testing.T) {
	if Error.String() != "error" || Warning.String() != "warning" {
		t.Errorf("got %q, %q", Error, Warning)
	}
}
