package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/netip"
	"strings"

	"github.com/agenthooks/agenthooks/sandbox"
)

// SandboxResult is an effective sandbox rendered into an agent's own
// sandbox settings.
type SandboxResult struct {
	Agent, Title string
	// Document is the settings fragment, in the agent's format (JSON for
	// Claude Code, TOML for Codex), to merge into its settings file.
	Document []byte
	// ProjectPath and UserPath are where the fragment belongs, as in
	// Result.
	ProjectPath, UserPath string
	// Warnings are what the agent's sandbox cannot express. Where it
	// cannot, the fragment is stricter than sandbox.json, never looser,
	// unless a warning says otherwise.
	Warnings []string
}

// SandboxAgents are the agents with sandbox settings of their own
// (Target.Sandbox).
func (ts Targets) SandboxAgents() []string {
	var out []string
	for _, t := range ts {
		if t.Sandbox != nil {
			out = append(out, t.Name)
		}
	}
	return out
}

// Sandbox renders p, the effective sandbox of a workspace, into agent's
// own sandbox settings.
func (ts Targets) Sandbox(agent string, p sandbox.Policy) (SandboxResult, error) {
	if t := ts.Lookup(agent); t != nil && t.Sandbox != nil {
		r := t.Sandbox(p)
		r.Agent, r.Title = t.Name, t.Title
		return r, nil
	}
	if ts.Title(agent) != "" {
		return SandboxResult{}, fmt.Errorf("%s has no sandbox settings agenthooks can write; run its commands through agenthooks exec (its $SHELL) to contain them: sandbox export is for %s",
			ts.Title(agent), strings.Join(ts.SandboxAgents(), ", "))
	}
	return SandboxResult{}, &UnknownAgentError{Agent: agent, Known: ts.Agents()}
}

// HostRules splits network rules into host patterns an agent can list and
// the address rules (IPs, CIDR blocks) it cannot.
func HostRules(rules []sandbox.Rule) (hosts, addrs []string) {
	for _, r := range rules {
		pat := r.Pattern
		if _, err := netip.ParsePrefix(pat); err == nil {
			addrs = append(addrs, pat)
			continue
		}
		if _, err := netip.ParseAddr(pat); err == nil {
			addrs = append(addrs, pat)
			continue
		}
		hosts = append(hosts, pat)
	}
	return hosts, addrs
}

// CoversDenied reports a denied pattern that the allowed host pattern
// allow also matches.
func CoversDenied(allow string, deny []sandbox.Rule) (string, bool) {
	for _, d := range deny {
		dp := strings.TrimPrefix(d.Pattern, "*.")
		switch {
		case allow == "*", strings.EqualFold(allow, d.Pattern):
			return d.Pattern, true
		case strings.HasPrefix(allow, "*.") && strings.HasSuffix(strings.ToLower(dp), strings.ToLower(allow[1:])):
			return d.Pattern, true
		}
	}
	return "", false
}

// NonNil is s, or an empty list: a JSON document lists none as [].
func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// IndentJSON is v as an indented JSON document.
func IndentJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
	return b.Bytes()
}
