package agent

import (
	"reflect"
	"testing"

	"github.com/agenthooks/agenthooks/export"
)

func TestToolTable(t *testing.T) {
	tab := ToolTable{{"sh", ToolShell, RoleShell}, {"cat", ToolRead, RoleRead}, {"many", ToolRead, RoleOther}, {"ed", ToolWrite, RoleEdit}}
	if got := tab.Specs()["many"]; got != (ToolSpec{Name: ToolRead, Role: RoleOther}) {
		t.Errorf("Specs: many = %+v", got)
	}
	want := map[string][]string{ToolShell: {"sh"}, ToolRead: {"cat", "many"}, export.ToolReadGate: {"cat"}, ToolWrite: {"ed"}}
	if got := tab.ExportTools(); !reflect.DeepEqual(got, want) {
		t.Errorf("ExportTools = %v, want %v", got, want)
	}
	if got := tab.NamesOf(ToolRead); !reflect.DeepEqual(got, []string{"cat", "many"}) || tab.NamesOf(ToolTask) != nil {
		t.Errorf("NamesOf = %v", got)
	}
}
