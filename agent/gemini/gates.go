package gemini

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/agenthooks/agenthooks/install"
)

// Gemini CLI's gate: with folder trust on (its default since 0.61), it
// runs settings hooks, user and project alike, only in a folder it
// trusts, as trustedFolders.json in its home folder says
// ({"/path": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST"}: the rule
// of the longest path that contains the folder, real paths compared);
// headless, it refuses to start in an untrusted one. The gate is for a
// workspace: a project install's, or the doctor's for either scope.
type geminiGates struct{}

// geminiHome is Gemini CLI's own folder: $GEMINI_CLI_HOME/.gemini, else
// ~/.gemini.
func geminiHome(o install.Options) (string, error) {
	home, err := o.AgentHome("GEMINI_CLI_HOME", "")
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".gemini"), nil
}

func (geminiGates) configPath(o install.Options) (string, error) {
	if p := o.GetenvFunc()("GEMINI_CLI_TRUSTED_FOLDERS_PATH"); p != "" {
		return p, nil
	}
	home, err := geminiHome(o)
	return filepath.Join(home, "trustedFolders.json"), err
}

func (g geminiGates) LedgerPath(o install.Options) (string, error) {
	p, err := g.configPath(o)
	return p + install.LedgerSuffix, err
}

func (g geminiGates) List(o install.Options, _ string, _ []byte) ([]install.Gate, error) {
	if o.Root == "" || o.GetenvFunc()("GEMINI_CLI_TRUST_WORKSPACE") == "true" || geminiTrustOff(o) {
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
	rules, err := geminiRules(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg, err)
	}
	return []install.Gate{{
		What:    "Gemini CLI trusts the folder " + o.Root,
		File:    cfg,
		Setting: string(install.MustJSON(o.Root)) + `: "TRUST_FOLDER"`,
		Open:    Trusted(rules, o.Root),
		Folder:  o.Root,
		Command: "gemini in " + o.Root + " (and trust the folder in its dialog)",
	}}, nil
}

// geminiRules reads trustedFolders.json (comments allowed, as Gemini CLI
// allows them).
func geminiRules(data []byte) (map[string]string, error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, nil
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	v.Standardize()
	var rules map[string]string
	if err := json.Unmarshal(v.Pack(), &rules); err != nil {
		return nil, fmt.Errorf("not an object of trust levels: %w", err)
	}
	return rules, nil
}

// Trusted is Gemini CLI's rule: the rule of the longest path that
// contains the folder (TRUST_PARENT's path is its parent), real paths
// compared, decides; no rule is no trust.
func Trusted(rules map[string]string, folder string) bool {
	loc := realPath(folder)
	best, level := -1, ""
	for path, l := range rules {
		eff := path
		if l == "TRUST_PARENT" {
			eff = filepath.Dir(path)
		}
		eff = realPath(eff)
		if (loc == eff || strings.HasPrefix(loc, strings.TrimSuffix(eff, string(filepath.Separator))+string(filepath.Separator))) && len(path) > best {
			best, level = len(path), l
		}
	}
	return level == "TRUST_FOLDER" || level == "TRUST_PARENT"
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return filepath.Clean(r)
	}
	return filepath.Clean(p)
}

// geminiTrustOff: the user's Gemini settings turn folder trust off
// (security.folderTrust.enabled false), so every folder is trusted.
func geminiTrustOff(o install.Options) bool {
	home, err := geminiHome(o)
	if err != nil {
		return false
	}
	data, ok, err := install.ReadFile(filepath.Join(home, "settings.json"))
	if err != nil || !ok {
		return false
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return false
	}
	v.Standardize()
	var s struct {
		Security struct {
			FolderTrust struct {
				Enabled *bool `json:"enabled"`
			} `json:"folderTrust"`
		} `json:"security"`
	}
	return json.Unmarshal(v.Pack(), &s) == nil && s.Security.FolderTrust.Enabled != nil && !*s.Security.FolderTrust.Enabled
}

func (g geminiGates) Open(o install.Options, hooksPath string, hooks []byte, l *install.Ledger) error {
	gs, err := g.List(o, hooksPath, hooks)
	if err != nil || len(gs) == 0 || gs[0].Open {
		return err
	}
	cfg := gs[0].File
	doc, root, exists, err := install.ReadSettingsDoc(cfg)
	if err != nil {
		return err
	}
	if m := install.Member(root, o.Root); m != nil {
		return fmt.Errorf("%s says %s for %s: Gemini CLI was told not to trust it; change that there if it should",
			cfg, install.Standard(m.Value), o.Root)
	}
	if err := doc.AddMember(root, 1, o.Root, "TRUST_FOLDER"); err != nil {
		return err
	}
	if err := install.WriteFile(cfg, doc.Pack(), cfg); err != nil {
		return err
	}
	l.Add(install.LedgerEntry{For: hooksPath, Key: []string{o.Root}, Value: "TRUST_FOLDER", Created: !exists})
	return nil
}

func (g geminiGates) Close(o install.Options, hooksPath string, l *install.Ledger) error {
	cfg, err := g.configPath(o)
	if err != nil {
		return err
	}
	doc, root, err := install.ReadGateDoc(cfg, hooksPath, l)
	if doc == nil {
		return err
	}
	created := false
	for _, e := range l.EntriesFor(hooksPath) {
		created = created || e.Created
		for i := range root.Members {
			m := &root.Members[i]
			var level string
			if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == e.Key[0] &&
				json.Unmarshal(install.Standard(m.Value), &level) == nil && level == e.Value {
				root.Members = install.DeleteMemberIndex(root.Members, &root.AfterExtra, i)
				break
			}
		}
	}
	l.Remove(hooksPath, func(install.LedgerEntry) bool { return true })
	if created && len(root.Members) == 0 && len(l.Entries) == 0 {
		return install.RemoveFile(cfg)
	}
	return install.WriteFile(cfg, doc.Pack(), cfg)
}
