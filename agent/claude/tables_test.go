package claude

import (
	"slices"
	"testing"
)

// TestTablesAgree: the dialect and the settings hooks read one table, so
// a tool or an event means the same to both (they once disagreed on
// NotebookEdit).
func TestTablesAgree(t *testing.T) {
	for _, tr := range tools {
		if got := claudeTools[tr.Name]; got.Name != tr.Cursor || got.Role != tr.Role {
			t.Errorf("dialect: %s = %+v, want %s", tr.Name, got, tr.Cursor)
		}
		if names := MatchNames(tr.Cursor, nil, ""); !slices.Contains(names, tr.Name) {
			t.Errorf("settings hooks: a matcher of %s does not see %s (%v)", tr.Name, tr.Cursor, names)
		}
	}
	for _, e := range events {
		if s, ok := Step(e.Name); !ok || s != e.Step {
			t.Errorf("Step(%s) = %s, %v, want %s", e.Name, s, ok, e.Step)
		}
		if Event(e.Step) != e.Name {
			t.Errorf("Event(%s) = %s, want %s", e.Step, Event(e.Step), e.Name)
		}
		if claudeEvents[e.Name] != e.Kind {
			t.Errorf("dialect: %s is %v, want %v", e.Name, claudeEvents[e.Name], e.Kind)
		}
		if slices.Contains(KnownEvents, e.Name) {
			t.Errorf("%s is both mapped and known unmapped", e.Name)
		}
	}
	if !slices.Equal(Format.Events, Events()) || Format.Step == nil {
		t.Errorf("the settings format's events %v are not the table's %v", Format.Events, Events())
	}
}
