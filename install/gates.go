package install

import (
	"fmt"
	"os"
	"path/filepath"
)

// An agent's own gates: conditions the agent itself sets before it runs
// the hooks install wrote. Codex runs a project's hooks only in a project
// it trusts, and any hook only once its definition was reviewed (the
// review is a hash of the hook kept in config.toml); GitHub Copilot CLI
// runs a project's hooks only in a folder it trusts. A gate that is shut
// lets every action through unjudged, so install opens the gates with the
// user's consent (Trust), and otherwise says exactly what to set; the
// doctor reports them.

// A Gate is one such condition for the hooks of one install.
type Gate struct {
	// What is the condition, in words: `Codex trusts the project /p`.
	What string
	// File is the agent's file that records it.
	File string
	// Setting is the entry of File that opens it, written as in File.
	Setting string
	// Open: the agent will run the hooks as far as this gate goes.
	Open bool
	// Hook is the event of the hook a review gate is for ("" for a
	// folder's trust).
	Hook string
	// Folder is the folder a folder's trust is for ("" for a review).
	Folder string
	// Command opens it in the agent, when the agent has one (Codex's
	// /hooks is interactive, so this is a hint, not a command line).
	Command string
}

// GateSet is how an agent's gates are read and opened.
type GateSet interface {
	// List lists them for the hooks file at hooksPath (as installed).
	List(o Options, hooksPath string, hooks []byte) ([]Gate, error)
	// Open opens the shut ones, recording each change in the ledger
	// under hooksPath.
	Open(o Options, hooksPath string, hooks []byte, l *Ledger) error
	// Close takes back what Open recorded for hooksPath.
	Close(o Options, hooksPath string, l *Ledger) error
	// LedgerPath is where the record of changes is kept.
	LedgerPath(o Options) (string, error)
}

// Gates reports the agent's own gates for what install wrote with o; none
// when the agent has none, or when nothing is installed.
func (as Agents) Gates(o Options) ([]Gate, error) {
	a, path, err := as.resolve(o)
	if err != nil {
		return nil, err
	}
	gs := a.Gates
	if gs == nil {
		return nil, nil
	}
	data, ok, err := ReadFile(path)
	if err != nil || !ok || !installed(a, data) {
		return nil, err
	}
	return gs.List(o, path, data)
}

// Trust opens the agent's gates for what install wrote with o, as the
// agent itself records them, and returns them as they are after.
// Uninstall takes back exactly what Trust changed.
func (as Agents) Trust(o Options) ([]Gate, error) {
	a, path, err := as.resolve(o)
	if err != nil {
		return nil, err
	}
	gs := a.Gates
	if gs == nil {
		return nil, nil
	}
	data, ok, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !ok || !installed(a, data) {
		return nil, fmt.Errorf("trust: agenthooks is not installed in %s", path)
	}
	l, err := openLedger(gs, o)
	if err != nil {
		return nil, err
	}
	if err := gs.Open(o, path, data, l); err != nil {
		return nil, err
	}
	if err := l.Save(); err != nil {
		return nil, err
	}
	return gs.List(o, path, data)
}

// untrust takes back what Trust changed for the hooks file at path.
func untrust(o Options, a *Agent, path string) error {
	gs := a.Gates
	if gs == nil {
		return nil
	}
	l, err := openLedger(gs, o)
	if err != nil {
		return err
	}
	if len(l.EntriesFor(path)) == 0 {
		return nil
	}
	if err := gs.Close(o, path, l); err != nil {
		return err
	}
	return l.Save()
}

// GetenvFunc is o's environment lookup.
func (o Options) GetenvFunc() func(string) string {
	if o.Getenv != nil {
		return o.Getenv
	}
	return os.Getenv
}

// AgentHome is $VAR, else rel under the home folder.
func (o Options) AgentHome(v, rel string) (string, error) {
	if d := o.GetenvFunc()(v); d != "" {
		return d, nil
	}
	if o.Home == "" {
		return "", fmt.Errorf("the home folder is unknown: set %s", v)
	}
	return filepath.Join(o.Home, rel), nil
}

func openLedger(gs GateSet, o Options) (*Ledger, error) {
	p, err := gs.LedgerPath(o)
	if err != nil {
		return nil, err
	}
	return readLedger(p)
}

// ledgerFor is the agent's ledger, nil for an agent without gates.
func ledgerFor(o Options, a *Agent) (*Ledger, error) {
	gs := a.Gates
	if gs == nil {
		return nil, nil
	}
	return openLedger(gs, o)
}

// HasGates reports whether the agent has gates of its own (Codex, Copilot
// CLI, Gemini CLI), which install --trust opens.
func (as Agents) HasGates(name string) bool {
	a, ok := as.Lookup(name)
	return ok && a.Gates != nil
}

// Spellings is path, and its real path (links resolved) when that
// differs.
func Spellings(path string) []string {
	out := []string{path}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		out = append(out, real)
	}
	return out
}

// Untrust takes back what Trust changed for what install wrote with o,
// and leaves the hooks installed: for an agent that was wired before and
// whose gates were opened later (agenthooks setup --undo).
func (as Agents) Untrust(o Options) error {
	a, path, err := as.resolve(o)
	if err != nil {
		return err
	}
	return untrust(o, a, path)
}
