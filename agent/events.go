package agent

import "github.com/agenthooks/agenthooks/export"

// EventRow is one of an agent's events with a Cursor counterpart, and what
// the dialect answers to it.
type EventRow struct {
	Name string
	Kind Kind
}

// EventTable is an agent's events, in the order of a session: written once
// in the agent's package, it is what its dialect reads (Kinds), what
// install wires and export writes, in that order (Names).
type EventTable []EventRow

// Kinds maps each event to its kind, as a dialect reads a payload's event.
func (t EventTable) Kinds() map[string]Kind {
	m := make(map[string]Kind, len(t))
	for _, r := range t {
		m[r.Name] = r.Kind
	}
	return m
}

// Names lists the events, in order.
func (t EventTable) Names() []string {
	out := make([]string, len(t))
	for i, r := range t {
		out[i] = r.Name
	}
	return out
}

// OfKind lists the events of kind k, in order.
func (t EventTable) OfKind(k Kind) []string {
	var out []string
	for _, r := range t {
		if r.Kind == k {
			out = append(out, r.Name)
		}
	}
	return out
}

// Named is the first event of kind k, "" when the agent has none.
func (t EventTable) Named(k Kind) string {
	for _, r := range t {
		if r.Kind == k {
			return r.Name
		}
	}
	return ""
}

// Lifecycle names the events for export's steps about no tool.
func (t EventTable) Lifecycle() export.Lifecycle {
	return export.Lifecycle{Prompt: t.Named(Prompt), Stop: t.Named(Stop), SubagentStop: t.Named(SubagentStop),
		SessionStart: t.Named(SessionStart), SessionEnd: t.Named(SessionEnd), Compact: t.Named(Compact)}
}
