package install

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tailscale/hujson"
)

// Copilot CLI's gate: it loads a project's hooks (.github/hooks) only in a
// folder listed in trustedFolders of $COPILOT_HOME/config.json (its trust
// question, or COPILOT_ALLOW_ALL=true for one run; --allow-all-tools does
// not). Hooks of the user's own folder load anywhere.
type copilotGates struct{}

func (copilotGates) configPath(o Options) (string, error) {
	home, err := o.agentHome("COPILOT_HOME", ".copilot")
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "config.json"), nil
}

func (g copilotGates) ledgerPath(o Options) (string, error) {
	p, err := g.configPath(o)
	return p + LedgerSuffix, err
}

var trustedFoldersKey = []string{"trustedFolders"}

func (g copilotGates) gates(o Options, _ string, _ []byte) ([]Gate, error) {
	if o.Scope != Project {
		return nil, nil
	}
	cfg, err := g.configPath(o)
	if err != nil {
		return nil, err
	}
	data, _, err := readFile(cfg)
	if err != nil {
		return nil, err
	}
	folders, err := copilotTrusted(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg, err)
	}
	// The folder as the user gave it, and its real path: Copilot CLI
	// compares the folder it runs in, which the system gives as the
	// real path.
	var out []Gate
	for _, root := range spellings(o.Root) {
		open := false
		for _, f := range folders {
			open = open || filepath.Clean(f) == filepath.Clean(root)
		}
		out = append(out, Gate{
			What:    "Copilot CLI trusts the folder " + root,
			File:    cfg,
			Setting: `"trustedFolders": [` + string(mustJSON(root)) + `]`,
			Open:    open,
			Command: "copilot in " + root + " (and answer its trust question with \"remember\")",
		})
	}
	return out, nil
}

// copilotTrusted reads trustedFolders.
func copilotTrusted(data []byte) ([]string, error) {
	if len(data) == 0 {
		return nil, nil
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	var c struct {
		TrustedFolders []string `json:"trustedFolders"`
	}
	v.Standardize()
	if err := json.Unmarshal(v.Pack(), &c); err != nil {
		return nil, fmt.Errorf("trustedFolders: %w", err)
	}
	return c.TrustedFolders, nil
}

func (g copilotGates) open(o Options, hooksPath string, hooks []byte, l *ledger) error {
	gs, err := g.gates(o, hooksPath, hooks)
	if err != nil {
		return err
	}
	for _, gate := range gs {
		if gate.Open {
			continue
		}
		folder := strings.TrimPrefix(gate.What, "Copilot CLI trusts the folder ")
		if err := g.addFolder(gate.File, folder, hooksPath, l); err != nil {
			return err
		}
	}
	return nil
}

// addFolder appends folder to trustedFolders in cfg and records it.
func (g copilotGates) addFolder(cfg, folder, hooksPath string, l *ledger) error {
	doc, root, exists, err := readSettingsDoc(cfg)
	if err != nil {
		return err
	}
	newList := false
	if m := member(root, "trustedFolders"); m != nil {
		arr, ok := m.Value.Value.(*hujson.Array)
		if !ok {
			return fmt.Errorf(`%s: "trustedFolders" is not a list; add %q to it by hand`, cfg, folder)
		}
		v, err := doc.value(folder, 2)
		if err != nil {
			return err
		}
		appendValue(&arr.Elements, &arr.AfterExtra, v, doc.indent(2), doc.indent(1))
	} else {
		if err := doc.addMember(root, 1, "trustedFolders", []string{folder}); err != nil {
			return err
		}
		newList = true
	}
	if err := writeFile(cfg, doc.pack(), cfg); err != nil {
		return err
	}
	l.add(ledgerEntry{For: hooksPath, Key: trustedFoldersKey, Value: folder, Created: !exists, NewList: newList})
	return nil
}

func (g copilotGates) close(o Options, hooksPath string, l *ledger) error {
	cfg, err := g.configPath(o)
	if err != nil {
		return err
	}
	doc, root, err := readGateDoc(cfg, hooksPath, l)
	if doc == nil {
		return err
	}
	created, newList := false, false
	for _, e := range l.entriesFor(hooksPath) {
		created, newList = created || e.Created, newList || e.NewList
		m := member(root, "trustedFolders")
		if m == nil {
			continue
		}
		if arr, ok := m.Value.Value.(*hujson.Array); ok {
			arr.Elements = deleteWhere(arr.Elements, &arr.AfterExtra, func(v *hujson.Value) bool {
				var s string
				return json.Unmarshal(standard(*v), &s) == nil && s == e.Value
			})
		}
	}
	if m := member(root, "trustedFolders"); m != nil && newList {
		// The list was install's: it goes with its folders.
		if arr, ok := m.Value.Value.(*hujson.Array); ok && len(arr.Elements) == 0 {
			for i := range root.Members {
				if &root.Members[i] == m {
					root.Members = deleteMemberIndex(root.Members, &root.AfterExtra, i)
					break
				}
			}
		}
	}
	l.remove(hooksPath, func(ledgerEntry) bool { return true })
	if created && len(root.Members) == 0 && len(l.Entries) == 0 {
		return removeFile(cfg)
	}
	return writeFile(cfg, doc.pack(), cfg)
}
