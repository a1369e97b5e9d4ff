package claude

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/export"
	"github.com/agenthooks/agenthooks/sandbox"
)

// claudeSandbox is Claude Code's "sandbox" settings: its Bash tool runs in
// the OS sandbox, writes where allowWrite says besides the working folder,
// and connects only to allowedDomains.
func claudeSandbox(p sandbox.Policy) export.SandboxResult {
	r := export.SandboxResult{ProjectPath: ".claude/settings.json", UserPath: ".claude/settings.json"}
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
		hosts, addrs := export.HostRules(n.Allow)
		switch {
		case n.Default == sandbox.NetAllow:
			warn("networkPolicy.default allow: Claude Code's sandbox connects only to the domains it lists, and asks for others; no domain is listed")
			sb["network"] = map[string]any{"allowedDomains": []string{}}
		default:
			// Claude Code lists what it allows and nothing it denies: an
			// allowed pattern that covers a denied host is left out.
			var kept []string
			for _, h := range hosts {
				if d, covered := export.CoversDenied(h, n.Deny); covered {
					warn("networkPolicy.allow %s: covers the denied %s, and Claude Code's sandbox has no deny list; left out (stricter: list the allowed hosts one by one)", h, d)
					continue
				}
				kept = append(kept, h)
			}
			sb["network"] = map[string]any{"allowedDomains": export.NonNil(kept)}
			if len(addrs) > 0 {
				warn("networkPolicy.allow %s: Claude Code's sandbox lists domains, not addresses; left out (stricter)", strings.Join(addrs, ", "))
			}
		}
	}
	r.Document = export.IndentJSON(map[string]any{"sandbox": sb})
	return r
}

// claudePath writes an absolute path as Claude Code's settings read one:
// "//" starts a path from the root ("/" alone is the settings' folder).
func claudePath(p string) string {
	if strings.HasPrefix(p, "/") {
		return "/" + p
	}
	return p
}
