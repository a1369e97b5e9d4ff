package agent

import "github.com/agenthooks/agenthooks/export"

// ToolRow is one of an agent's tools that has a Cursor name: its own
// name, the Cursor tool it is, and how the dialect reads its input.
type ToolRow struct {
	Name   string
	Cursor string
	Role   Role
}

// ToolTable is an agent's tools, written once in its package: the dialect
// reads it (Specs), export writes matchers with it (ExportTools, Names).
// For one Cursor tool, the agent's names keep the table's order.
type ToolTable []ToolRow

// Specs is the table as a dialect reads a tool call.
func (t ToolTable) Specs() map[string]ToolSpec {
	m := make(map[string]ToolSpec, len(t))
	for _, r := range t {
		m[r.Name] = ToolSpec{Name: r.Cursor, Role: r.Role}
	}
	return m
}

// NamesOf are the agent's names for a Cursor tool, in order; nil for a
// tool not in the table.
func (t ToolTable) NamesOf(cursor string) []string {
	var out []string
	for _, r := range t {
		if r.Cursor == cursor {
			out = append(out, r.Name)
		}
	}
	return out
}

// Names lists the agent's tool names, in order.
func (t ToolTable) Names() []string {
	out := make([]string, len(t))
	for i, r := range t {
		out[i] = r.Name
	}
	return out
}

// ExportTools are the agent's names for each Cursor tool, as export writes
// a matcher; the read that beforeReadFile gates is the tools that read
// one file (RoleRead).
func (t ToolTable) ExportTools() map[string][]string {
	m := map[string][]string{}
	for _, r := range t {
		m[r.Cursor] = append(m[r.Cursor], r.Name)
		if r.Role == RoleRead {
			m[export.ToolReadGate] = append(m[export.ToolReadGate], r.Name)
		}
	}
	return m
}
