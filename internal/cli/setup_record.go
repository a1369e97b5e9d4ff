package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/agenthooks/agenthooks/internal/atomicfile"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/trust"
)

// defaultStaleAfter is how old a team's last sync may be before doctor
// calls it stale.
const defaultStaleAfter = 24 * time.Hour

// setupRecordName is the file, beside the trust store, where setup keeps
// what it changed, so that setup --undo takes back exactly that and
// nothing the user did on their own.
const setupRecordName = "setup.json"

func setupRecordPath(getenv func(string) string) string {
	return filepath.Join(trust.DefaultDir(getenv), setupRecordName)
}

// setupRecord is what setup changed.
type setupRecord struct {
	Installs []*setupInstall `json:"installs"`
	// Trusted are the workspaces setup trusted that were not trusted
	// before.
	Trusted []string `json:"trusted,omitempty"`
}

// setupInstall is what setup changed for one agent, at user scope.
type setupInstall struct {
	Agent string `json:"agent"`
	// Binary is the agenthooks the hooks run: uninstall recognises its
	// own hooks by it.
	Binary string `json:"binary"`
	// Wired: setup wrote the hooks (they were not there before).
	Wired bool `json:"wired,omitempty"`
	// Gates: setup opened the agent's own gates, for Root.
	Gates bool   `json:"gates,omitempty"`
	Root  string `json:"root,omitempty"`
}

// readSetupRecord reads the record; none is an empty one.
func readSetupRecord(path string) (*setupRecord, error) {
	rec := &setupRecord{}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	if err := json.Unmarshal(data, rec); err != nil {
		return nil, fmt.Errorf("setup: %s: %w (it records what agenthooks setup changed; remove it to forget that, then undo by hand with agenthooks uninstall)", path, err)
	}
	return rec, nil
}

// entry is the agent's entry, added when there is none.
func (r *setupRecord) entry(agent string) *setupInstall {
	for _, e := range r.Installs {
		if e.Agent == agent {
			return e
		}
	}
	e := &setupInstall{Agent: agent}
	r.Installs = append(r.Installs, e)
	return e
}

// save writes the record, or removes it once there is nothing to undo.
func (r *setupRecord) save(path string) error {
	r.Installs = slices.DeleteFunc(r.Installs, func(e *setupInstall) bool { return !e.Wired && !e.Gates })
	if len(r.Installs) == 0 && len(r.Trusted) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("setup: %w", err)
		}
		return nil
	}
	data, err := jsonplain.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	if err := atomicfile.Write(path, append(data, '\n')); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	return nil
}

// appendNew appends s unless list has it.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
