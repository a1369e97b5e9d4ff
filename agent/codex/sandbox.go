package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/export"
	"github.com/agenthooks/agenthooks/sandbox"
)

// codexSandbox is Codex's config.toml sandbox: sandbox_mode and
// [sandbox_workspace_write]. Codex has one network switch, not a list.
func codexSandbox(p sandbox.Policy) export.SandboxResult {
	r := export.SandboxResult{ProjectPath: ".codex/config.toml", UserPath: ".codex/config.toml"}
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
