package config

import "testing"

func TestClosest(t *testing.T) {
	tests := []struct {
		word   string
		want   string
		wantOK bool
	}{
		{"beforeShellExec", "beforeShellExecution", true},
		{"beforeShelExecution", "beforeShellExecution", true},
		{"PreToolUse", "preToolUse", true},
		{"afterFileEdits", "afterFileEdit", true},
		{"stopp", "stop", true},
		{"zzz", "", false},
		{"onSave", "", false},
	}
	for _, tt := range tests {
		got, ok := closest(tt.word, stepNames)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("closest(%q) = %q, %v; want %q, %v", tt.word, got, ok, tt.want, tt.wantOK)
		}
	}
	if got, _ := closest("fail_closed", hookKeys); got != "failClosed" {
		t.Errorf("closest(fail_closed) = %q", got)
	}
	if got, _ := closest("loopLimit", hookKeys); got != "loop_limit" {
		t.Errorf("closest(loopLimit) = %q", got)
	}
}
