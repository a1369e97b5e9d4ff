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

// SandboxAgents are the agents with sandbox settings of their own.
func SandboxAgents() []string { return []string{"claude", "codex"} }

// Sandbox renders p, the effective sandbox of a workspace, into agent's
// own sandbox settings.
func (ts Targets) Sandbox(agent string, p sandbox.Policy) (SandboxResult, error) {
	switch agent {
	case "claude":
		return claudeSandbox(p, ts.Title(agent)), nil
	case "codex":
		return codexSandbox(p, ts.Title(agent)), nil
	}
	if ts.Title(agent) != "" {
		return SandboxResult{}, fmt.Errorf("%s has no sandbox settings agenthooks can write; run its commands through agenthooks exec (its $SHELL) to contain them: sandbox export is for %s",
			ts.Title(agent), strings.Join(SandboxAgents(), ", "))
	}
	return SandboxResult{}, &UnknownAgentError{Agent: agent, Known: ts.Agents()}
}

// hostRules splits network rules into host patterns an agent can list and
// the address rules (IPs, CIDR blocks) it cannot.
func hostRules(rules []sandbox.Rule) (hosts, addrs []string) {
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

// claudeSandbox is Claude Code's "sandbox" settings: its Bash tool runs in
// the OS sandbox, writes where allowWrite says besides the working folder,
// and connects only to allowedDomains.
func claudeSandbox(p sandbox.Policy, title string) SandboxResult {
	r := SandboxResult{Agent: "claude", Title: title, ProjectPath: ".claude/settings.json", UserPath: ".claude/settings.json"}
	warn := func(format string, a ...any) { r.Warnings = append(r.Warnings, fmt.Sprintf(format, a...)) }
	sb := map[string]any{"enabled": p.Enabled()}
	if p.Enabled() {
		// The model may not run a command outside the sandbox by itself.
		sb["allowUnsandboxedCommands"] = false
		if p.Type == sandbox.WorkspaceReadonly {
			warn("type workspace_readonly: Claude Code's sandbox always lets a command write its working folder; only the paths below are added (contain writes with agenthooks exec instead)")
		}
		if p.ReadBoundary == sandbox.ReadWorkspace {
			warn("readBoundary workspace: Claude Code's sandbox reads every file the user can, save those its denyRead lists; reads are not limited")
		}
		if p.DisableTmpWrite {
			warn("disableTmpWrite: Claude Code's sandbox decides itself about the temporary folders")
		}
		fs := map[string]any{}
		var write []string
		for _, g := range p.ReadwritePaths {
			write = append(write, claudePath(g.Path))
		}
		if len(write) > 0 && p.Type == sandbox.WorkspaceReadwrite {
			fs["allowWrite"] = write
		}
		if len(fs) > 0 {
			sb["filesystem"] = fs
		}
		n := p.Network
		hosts, addrs := hostRules(n.Allow)
		switch {
		case n.Default == sandbox.NetAllow:
			warn("networkPolicy.default allow: Claude Code's sandbox connects only to the domains it lists, and asks for others; no domain is listed")
			sb["network"] = map[string]any{"allowedDomains": []string{}}
		default:
			// Claude Code lists what it allows and nothing it denies: an
			// allowed pattern that covers a denied host is left out.
			var kept []string
			for _, h := range hosts {
				if d, covered := coversDenied(h, n.Deny); covered {
					warn("networkPolicy.allow %s: covers the denied %s, and Claude Code's sandbox has no deny list; left out (stricter: list the allowed hosts one by one)", h, d)
					continue
				}
				kept = append(kept, h)
			}
			sb["network"] = map[string]any{"allowedDomains": nonNil(kept)}
			if len(addrs) > 0 {
				warn("networkPolicy.allow %s: Claude Code's sandbox lists domains, not addresses; left out (stricter)", strings.Join(addrs, ", "))
			}
		}
	}
	r.Document = indentJSON(map[string]any{"sandbox": sb})
	return r
}

// coversDenied reports a denied pattern that the allowed host pattern
// allow also matches.
func coversDenied(allow string, deny []sandbox.Rule) (string, bool) {
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

// claudePath writes an absolute path as Claude Code's settings read one:
// "//" starts a path from the root ("/" alone is the settings' folder).
func claudePath(p string) string {
	if strings.HasPrefix(p, "/") {
		return "/" + p
	}
	return p
}

// codexSandbox is Codex's config.toml sandbox: sandbox_mode and
// [sandbox_workspace_write]. Codex has one network switch, not a list.
func codexSandbox(p sandbox.Policy, title string) SandboxResult {
	r := SandboxResult{Agent: "codex", Title: title, ProjectPath: ".codex/config.toml", UserPath: ".codex/config.toml"}
	warn := func(format string, a ...any) { r.Warnings = append(r.Warnings, fmt.Sprintf(format, a...)) }
	var b bytes.Buffer
	switch {
	case !p.Enabled():
		b.WriteString("sandbox_mode = \"danger-full-access\"\n")
		r.Document = b.Bytes()
		return r
	case p.Type == sandbox.WorkspaceReadonly:
		b.WriteString("sandbox_mode = \"read-only\"\n")
	default:
		b.WriteString("sandbox_mode = \"workspace-write\"\n")
	}
	if p.ReadBoundary == sandbox.ReadWorkspace {
		warn("readBoundary workspace: Codex's sandbox reads every file the user can; reads are not limited")
	}
	n := p.Network
	network := n.Open()
	if !network {
		if n.Default == sandbox.NetAllow {
			warn("networkPolicy.deny: Codex has one network switch, not a deny list; the network is off (stricter)")
		} else if len(n.Allow) > 0 {
			var pats []string
			for _, a := range n.Allow {
				pats = append(pats, a.Pattern)
			}
			warn("networkPolicy.allow %s: Codex has one network switch, not an allow list; the network is off (stricter: run such commands through agenthooks exec)", strings.Join(pats, ", "))
		}
	}
	b.WriteString("\n[sandbox_workspace_write]\n")
	var roots []string
	for _, g := range p.ReadwritePaths {
		roots = append(roots, tomlString(g.Path))
	}
	if p.Type == sandbox.WorkspaceReadwrite && len(roots) > 0 {
		fmt.Fprintf(&b, "writable_roots = [%s]\n", strings.Join(roots, ", "))
	}
	fmt.Fprintf(&b, "network_access = %t\n", network)
	if p.DisableTmpWrite {
		b.WriteString("exclude_tmpdir_env_var = true\nexclude_slash_tmp = true\n")
	}
	if p.Type == sandbox.WorkspaceReadonly {
		warn("type workspace_readonly: Codex's read-only mode writes no temporary folder either (stricter)")
	}
	r.Document = b.Bytes()
	return r
}

// tomlString is s as a TOML basic string: JSON's escapes are TOML's.
func tomlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func indentJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
	return b.Bytes()
}
