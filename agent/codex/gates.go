package codex

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	agentcore "github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/install"
)

// Codex's gates, as Codex 0.169 keeps them in $CODEX_HOME/config.toml:
//
//	[projects."/abs/project"]
//	trust_level = "trusted"
//
//	[hooks.state."/abs/project/.codex/hooks.json:pre_tool_use:0:0"]
//	trusted_hash = "sha256:…"
//
// The first is the project trust (`codex exec --trust`, or the trust
// question); a project's .codex folder is not read at all without it. The
// second is a hook's review (/hooks in Codex): the key names the hooks
// file, the event in snake case, the index of the matcher group in the
// event's list and of the handler in the group; the hash is SHA-256 of the
// hook's normalized definition (codexHookHash). A hook without a matching
// hash is skipped, as is one whose definition changed since its review.
type codexGates struct{}

func (codexGates) configPath(o install.Options) (string, error) {
	home, err := o.AgentHome("CODEX_HOME", ".codex")
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "config.toml"), nil
}

func (g codexGates) LedgerPath(o install.Options) (string, error) {
	p, err := g.configPath(o)
	return p + install.LedgerSuffix, err
}

// codexSetting is one entry of config.toml a gate needs.
type codexSetting struct {
	what  string
	hook  string
	key   []string
	value string
}

func (g codexGates) settings(o install.Options, hooksPath string, hooks []byte) ([]codexSetting, error) {
	var out []codexSetting
	if o.Scope == install.Project {
		for _, root := range install.Spellings(o.Root) {
			out = append(out, codexSetting{
				what:  "Codex trusts the project " + root,
				key:   []string{"projects", root, "trust_level"},
				value: "trusted",
			})
		}
	}
	// Codex names a hook by the path of its file as it found it: from
	// its working directory, which the system gives as the real path,
	// or as the path the user gave. Both are reviewed when they differ.
	for _, path := range install.Spellings(hooksPath) {
		hs, err := Hooks(path, hooks)
		if err != nil {
			return nil, err
		}
		for _, h := range hs {
			out = append(out, codexSetting{
				what:  "Codex has reviewed the " + h.Event + " hook (" + h.Key + ")",
				hook:  h.Event,
				key:   []string{"hooks", "state", h.Key, "trusted_hash"},
				value: h.Hash,
			})
		}
	}
	return out, nil
}

func (g codexGates) List(o install.Options, hooksPath string, hooks []byte) ([]install.Gate, error) {
	cfg, err := g.configPath(o)
	if err != nil {
		return nil, err
	}
	ss, err := g.settings(o, hooksPath, hooks)
	if err != nil {
		return nil, err
	}
	data, _, err := install.ReadFile(cfg)
	if err != nil {
		return nil, err
	}
	out := make([]install.Gate, 0, len(ss))
	for _, s := range ss {
		got, ok := install.TOMLGet(data, s.key)
		gate := install.Gate{
			What:    s.what,
			File:    cfg,
			Setting: "[" + install.TOMLKey(s.key[:len(s.key)-1]) + "]\n" + install.TOMLKey(s.key[len(s.key)-1:]) + " = " + install.TOMLString(s.value),
			Open:    ok && got == s.value,
			Hook:    s.hook,
			Command: "/hooks in Codex (review and trust each hook)",
		}
		if s.key[0] == "projects" {
			gate.Folder = s.key[1]
			gate.Command = "codex --cd " + o.Root + " (and accept the trust question), or codex exec --trust"
		}
		out = append(out, gate)
	}
	return out, nil
}

func (g codexGates) Open(o install.Options, hooksPath string, hooks []byte, l *install.Ledger) error {
	cfg, err := g.configPath(o)
	if err != nil {
		return err
	}
	ss, err := g.settings(o, hooksPath, hooks)
	if err != nil {
		return err
	}
	data, exists, err := install.ReadFile(cfg)
	if err != nil {
		return err
	}
	orig := data
	for _, s := range ss {
		if got, ok := install.TOMLGet(data, s.key); ok && got == s.value {
			continue
		}
		out, edit, err := install.TOMLSet(data, s.key, s.value)
		if err != nil {
			return fmt.Errorf("%s: %w; set it by hand:\n%s", cfg, err,
				"["+install.TOMLKey(s.key[:len(s.key)-1])+"]\n"+install.TOMLKey(s.key[len(s.key)-1:])+" = "+install.TOMLString(s.value))
		}
		data = out
		if old := l.Find(hooksPath, s.key, ""); old != nil {
			// Set by an earlier install (another binary path): what it
			// replaced is still what uninstall puts back.
			old.Value = s.value
			continue
		}
		l.Add(install.LedgerEntry{For: hooksPath, Key: s.key, Value: s.value, Edit: edit, Created: !exists})
	}
	if string(orig) == string(data) {
		return nil
	}
	return install.WriteFile(cfg, data, cfg)
}

func (g codexGates) Close(o install.Options, hooksPath string, l *install.Ledger) error {
	cfg, err := g.configPath(o)
	if err != nil {
		return err
	}
	data, exists, err := install.ReadFile(cfg)
	if err != nil || !exists {
		l.Remove(hooksPath, func(install.LedgerEntry) bool { return true })
		return err
	}
	entries := l.EntriesFor(hooksPath)
	created := false
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		out, _, err := install.TOMLUnset(data, e.Key, e.Value, e.Edit)
		if err != nil {
			return fmt.Errorf("%s: %w", cfg, err)
		}
		data = out
		created = created || e.Created
	}
	l.Remove(hooksPath, func(install.LedgerEntry) bool { return true })
	if created && len(strings.TrimSpace(string(data))) == 0 && len(l.Entries) == 0 {
		return install.RemoveFile(cfg)
	}
	return install.WriteFile(cfg, data, cfg)
}

// Hook is one handler install wrote, as Codex names it.
type Hook struct {
	Event, Key, Hash string
}

// Hooks lists agenthooks' handlers in a Codex hooks file with their
// review keys and hashes.
func Hooks(hooksPath string, data []byte) ([]Hook, error) {
	doc, err := install.ParseSettings(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", hooksPath, err)
	}
	hooks, err := doc.HooksObject(false)
	if err != nil || hooks == nil {
		return nil, err
	}
	mine := install.Ours("codex")
	var out []Hook
	for _, m := range hooks.Members {
		event := m.Name.Value.(hujson.Literal).String()
		groups, ok := m.Value.Value.(*hujson.Array)
		if !ok {
			continue
		}
		for i, gv := range groups.Elements {
			var g struct {
				Matcher *string          `json:"matcher"`
				Hooks   []map[string]any `json:"hooks"`
			}
			if json.Unmarshal(install.Standard(gv), &g) != nil {
				continue
			}
			for j, h := range g.Hooks {
				if !mine(h) {
					continue
				}
				cmd, _ := h["command"].(string)
				ev := agentcore.SnakeCase(event)
				timeout := HookTimeout(ev, h["timeout"])
				out = append(out, Hook{
					Event: event,
					Key:   hooksPath + ":" + ev + ":" + strconv.Itoa(i) + ":" + strconv.Itoa(j),
					Hash:  HookHash(ev, g.Matcher, cmd, timeout),
				})
			}
		}
	}
	return out, nil
}

// HookTimeout is a hook's timeout as Codex runs it, which is what its
// review hash covers: 600 s unless set, except that Codex gives SessionEnd
// hooks 1 s unless set, and 3 s at most (it is ending the process).
func HookTimeout(event string, set any) int {
	t, ok := set.(float64)
	switch {
	case event == "session_end" && !ok:
		return 1
	case event == "session_end":
		return min(int(t), 3)
	case !ok:
		return 600
	}
	return int(t)
}

// HookHash is the hash Codex keeps for a reviewed command hook:
// "sha256:" and the hex SHA-256 of the hook's definition as compact JSON
// with sorted keys, Codex's defaults filled in (async false, timeout 600)
// and the matcher only when the group has one. Pinned against the real
// Codex by TestCodexTrust in e2e.
func HookHash(event string, matcher *string, command string, timeout int) string {
	var b strings.Builder
	b.WriteString(`{"event_name":` + serdeString(event))
	b.WriteString(`,"hooks":[{"async":false,"command":` + serdeString(command))
	b.WriteString(`,"timeout":` + strconv.Itoa(timeout) + `,"type":"command"}]`)
	if matcher != nil {
		b.WriteString(`,"matcher":` + serdeString(*matcher))
	}
	b.WriteString("}")
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// serdeString writes s as a JSON string the way Codex's JSON writer does:
// only the quote, the backslash and control characters escaped, the short
// forms where JSON has them, everything else as UTF-8.
func serdeString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
