package install

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/agenthooks/agenthooks/internal/jsonplain"
)

// LedgerSuffix is appended to an agent's file for the record of what
// Trust changed in it: uninstall takes back exactly those changes, and
// leaves what the user (or the agent) had set alone.
const LedgerSuffix = ".agenthooks-trust.json"

// Ledger is the record of Trust's changes to one agent file.
type Ledger struct {
	path    string
	Entries []LedgerEntry `json:"entries"`
}

// LedgerEntry is one change: a TOML string set at Key (Codex), or Value
// added to the JSON array Key (Copilot).
type LedgerEntry struct {
	// For is the hooks file whose install the change is for.
	For   string   `json:"for"`
	Key   []string `json:"key"`
	Value string   `json:"value"`
	// TOML: how it was set.
	Edit TOMLEdit `json:"edit,omitzero"`
	// Created: the agent file did not exist before.
	Created bool `json:"created,omitempty"`
	// NewList: the JSON array was added for Value.
	NewList bool `json:"new_list,omitempty"`
}

func readLedger(path string) (*Ledger, error) {
	l := &Ledger{path: path}
	b, ok, err := ReadFile(path)
	if err != nil || !ok {
		return l, err
	}
	if err := json.Unmarshal(b, l); err != nil {
		return nil, fmt.Errorf("%s: %w (it records what agenthooks install --trust changed; remove it to forget that)", path, err)
	}
	return l, nil
}

func (l *Ledger) EntriesFor(hooksPath string) []LedgerEntry {
	var out []LedgerEntry
	for _, e := range l.Entries {
		if e.For == hooksPath {
			out = append(out, e)
		}
	}
	return out
}

// Find returns the entry for key and value recorded for hooksPath.
func (l *Ledger) Find(hooksPath string, key []string, value string) *LedgerEntry {
	for i, e := range l.Entries {
		if e.For == hooksPath && equalKeys(e.Key, key) && (value == "" || e.Value == value) {
			return &l.Entries[i]
		}
	}
	return nil
}

// Add records a change (once).
func (l *Ledger) Add(e LedgerEntry) {
	if l.Find(e.For, e.Key, e.Value) == nil {
		l.Entries = append(l.Entries, e)
	}
}

// Remove drops the entries for hooksPath that drop says go.
func (l *Ledger) Remove(hooksPath string, drop func(LedgerEntry) bool) {
	out := l.Entries[:0]
	for _, e := range l.Entries {
		if e.For != hooksPath || !drop(e) {
			out = append(out, e)
		}
	}
	l.Entries = out
}

// Save writes the ledger, or removes it when it is empty.
func (l *Ledger) Save() error {
	if len(l.Entries) == 0 {
		if err := os.Remove(l.path); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("remove %s: %w", l.path, err)
		}
		return nil
	}
	b, err := jsonplain.MarshalIndent(l, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", l.path, err)
	}
	return WriteFile(l.path, append(b, '\n'), l.path)
}

func equalKeys(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
