package copilot

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/tailscale/hujson"

	"github.com/agenthooks/agenthooks/install"
)

// Copilot CLI's gate: it loads a project's hooks (.github/hooks) only in a
// folder listed in trustedFolders of $COPILOT_HOME/config.json (its trust
// question, or COPILOT_ALLOW_ALL=true for one run; --allow-all-tools does
// not). Hooks of the user's own folder load anywhere.
type copilotGates struct{}

func (copilotGates) configPath(o install.Options) (string, error) {
	home, err := o.AgentHome("COPILOT_HOME", ".copilot")
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "config.json"), nil
}

func (g copilotGates) LedgerPath(o install.Options) (string, error) {
	p, err := g.configPath(o)
	return p + install.LedgerSuffix, err
}

var trustedFoldersKey = []string{"trustedFolders"}

func (g copilotGates) List(o install.Options, _ string, _ []byte) ([]install.Gate, error) {
	if o.Scope != install.Project {
		return nil, nil
	}
	cfg, err := g.configPath(o)
	if err != nil {
		return nil, err
	}
	data, _, err := install.ReadFile(cfg)
	if err != nil {
		return nil, err
	}
	folders, err := Trusted(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg, err)
	}
	// The folder as the user gave it, and its real path: Copilot CLI
	// compares the folder it runs in, which the system gives as the
	// real path.
	var out []install.Gate
	for _, root := range install.Spellings(o.Root) {
		open := false
		for _, f := range folders {
			open = open || filepath.Clean(f) == filepath.Clean(root)
		}
		out = append(out, install.Gate{
			What:    "Copilot CLI trusts the folder " + root,
			File:    cfg,
			Setting: `"trustedFolders": [` + string(install.MustJSON(root)) + `]`,
			Open:    open,
			Folder:  root,
			Command: "copilot in " + root + " (and answer its trust question with \"remember\")",
		})
	}
	return out, nil
}

// Trusted reads trustedFolders.
func Trusted(data []byte) ([]string, error) {
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

func (g copilotGates) Open(o install.Options, hooksPath string, hooks []byte, l *install.Ledger) error {
	gs, err := g.List(o, hooksPath, hooks)
	if err != nil {
		return err
	}
	for _, gate := range gs {
		if gate.Open {
			continue
		}
		if err := g.addFolder(gate.File, gate.Folder, hooksPath, l); err != nil {
			return err
		}
	}
	return nil
}

// addFolder appends folder to trustedFolders in cfg and records it.
func (g copilotGates) addFolder(cfg, folder, hooksPath string, l *install.Ledger) error {
	doc, root, exists, err := install.ReadSettingsDoc(cfg)
	if err != nil {
		return err
	}
	newList := false
	if m := install.Member(root, "trustedFolders"); m != nil {
		arr, ok := m.Value.Value.(*hujson.Array)
		if !ok {
			return fmt.Errorf(`%s: "trustedFolders" is not a list; add %q to it by hand`, cfg, folder)
		}
		v, err := doc.Value(folder, 2)
		if err != nil {
			return err
		}
		install.AppendValue(&arr.Elements, &arr.AfterExtra, v, doc.Indent(2), doc.Indent(1))
	} else {
		if err := doc.AddMember(root, 1, "trustedFolders", []string{folder}); err != nil {
			return err
		}
		newList = true
	}
	if err := install.WriteFile(cfg, doc.Pack(), cfg); err != nil {
		return err
	}
	l.Add(install.LedgerEntry{For: hooksPath, Key: trustedFoldersKey, Value: folder, Created: !exists, NewList: newList})
	return nil
}

func (g copilotGates) Close(o install.Options, hooksPath string, l *install.Ledger) error {
	cfg, err := g.configPath(o)
	if err != nil {
		return err
	}
	doc, root, err := install.ReadGateDoc(cfg, hooksPath, l)
	if doc == nil {
		return err
	}
	created, newList := false, false
	for _, e := range l.EntriesFor(hooksPath) {
		created, newList = created || e.Created, newList || e.NewList
		m := install.Member(root, "trustedFolders")
		if m == nil {
			continue
		}
		if arr, ok := m.Value.Value.(*hujson.Array); ok {
			arr.Elements = install.DeleteWhere(arr.Elements, &arr.AfterExtra, func(v *hujson.Value) bool {
				var s string
				return json.Unmarshal(install.Standard(*v), &s) == nil && s == e.Value
			})
		}
	}
	if m := install.Member(root, "trustedFolders"); m != nil && newList {
		// The list was install's: it goes with its folders.
		if arr, ok := m.Value.Value.(*hujson.Array); ok && len(arr.Elements) == 0 {
			for i := range root.Members {
				if &root.Members[i] == m {
					root.Members = install.DeleteMemberIndex(root.Members, &root.AfterExtra, i)
					break
				}
			}
		}
	}
	l.Remove(hooksPath, func(install.LedgerEntry) bool { return true })
	if created && len(root.Members) == 0 && len(l.Entries) == 0 {
		return install.RemoveFile(cfg)
	}
	return install.WriteFile(cfg, doc.Pack(), cfg)
}
