package agent

import (
	"slices"
	"testing"
)

func TestEventTable(t *testing.T) {
	tab := EventTable{{"Start", SessionStart}, {"Before", Tool}, {"After", PostTool}, {"AlsoBefore", Tool}}
	if got := tab.Names(); !slices.Equal(got, []string{"Start", "Before", "After", "AlsoBefore"}) {
		t.Errorf("Names = %v", got)
	}
	if k := tab.Kinds(); len(k) != 4 || k["AlsoBefore"] != Tool || k["Start"] != SessionStart {
		t.Errorf("Kinds = %v", k)
	}
	if tab.Named(Tool) != "Before" || tab.Named(Compact) != "" {
		t.Errorf("Named: %q, %q", tab.Named(Tool), tab.Named(Compact))
	}
}
