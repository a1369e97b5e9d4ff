package export_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/sandbox"
)

func policy(edit func(*sandbox.Policy)) sandbox.Policy {
	p := sandbox.Policy{Configured: true, Type: sandbox.WorkspaceReadwrite, ReadBoundary: sandbox.ReadSystem,
		Network: sandbox.Network{Default: sandbox.NetDeny}}
	if edit != nil {
		edit(&p)
	}
	return p
}

func rules(pats ...string) []sandbox.Rule {
	var out []sandbox.Rule
	for _, p := range pats {
		out = append(out, sandbox.Rule{Pattern: p, From: "/ws/.cursor/sandbox.json"})
	}
	return out
}

// TestSandboxClaude: the effective sandbox as Claude Code's settings,
// never looser: what it cannot list is left out, with a warning.
func TestSandboxClaude(t *testing.T) {
	p := policy(func(p *sandbox.Policy) {
		p.ReadwritePaths = []sandbox.Grant{{Path: "/data/cache"}}
		p.Network.Allow = rules("github.com", "*.npmjs.org", "*.example.com", "10.0.0.0/8")
		p.Network.Deny = rules("evil.npmjs.org")
		p.ReadBoundary = sandbox.ReadWorkspace
	})
	res, err := targets.Sandbox("claude", p)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(res.Document)
	for _, want := range []string{`"enabled": true`, `"allowUnsandboxedCommands": false`, `"//data/cache"`, `"github.com"`, `"*.example.com"`} {
		if !strings.Contains(doc, want) {
			t.Errorf("document lacks %s:\n%s", want, doc)
		}
	}
	for _, not := range []string{"*.npmjs.org", "10.0.0.0/8"} {
		if strings.Contains(doc, not) {
			t.Errorf("document allows %s, which Claude Code cannot hold to the deny list or to an address:\n%s", not, doc)
		}
	}
	joined := strings.Join(res.Warnings, "\n")
	for _, want := range []string{"readBoundary workspace", "*.npmjs.org: covers the denied evil.npmjs.org", "10.0.0.0/8"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
	open, _ := targets.Sandbox("claude", policy(func(p *sandbox.Policy) { p.Type = sandbox.InsecureNone }))
	if !strings.Contains(string(open.Document), `"enabled": false`) {
		t.Errorf("insecure_none: %s", open.Document)
	}
}

// TestSandboxCodex: Codex's modes and its one network switch, which is
// off whenever sandbox.json restricts the network.
func TestSandboxCodex(t *testing.T) {
	cases := []struct {
		name  string
		p     sandbox.Policy
		lines []string
		warns int
	}{
		{"readwrite, allow list", policy(func(p *sandbox.Policy) {
			p.ReadwritePaths = []sandbox.Grant{{Path: `/data/"odd"`}}
			p.Network.Allow = rules("github.com")
			p.DisableTmpWrite = true
		}), []string{`sandbox_mode = "workspace-write"`, `writable_roots = ["/data/\"odd\""]`, "network_access = false", "exclude_slash_tmp = true"}, 1},
		{"open network", policy(func(p *sandbox.Policy) { p.Network.Default = sandbox.NetAllow }), []string{"network_access = true"}, 0},
		{"deny list", policy(func(p *sandbox.Policy) {
			p.Network.Default = sandbox.NetAllow
			p.Network.Deny = rules("evil.com")
		}), []string{"network_access = false"}, 1},
		{"readonly", policy(func(p *sandbox.Policy) { p.Type = sandbox.WorkspaceReadonly }), []string{`sandbox_mode = "read-only"`}, 1},
		{"none", policy(func(p *sandbox.Policy) { p.Type = sandbox.InsecureNone }), []string{`sandbox_mode = "danger-full-access"`}, 0},
	}
	for _, c := range cases {
		res, err := targets.Sandbox("codex", c.p)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(res.Document), "\n")
		for _, want := range c.lines {
			if !slices.Contains(lines, want) {
				t.Errorf("%s: no line %q in\n%s", c.name, want, res.Document)
			}
		}
		if len(res.Warnings) != c.warns {
			t.Errorf("%s: warnings %q, want %d", c.name, res.Warnings, c.warns)
		}
	}
	if _, err := targets.Sandbox("gemini", policy(nil)); err == nil || !strings.Contains(err.Error(), "agenthooks exec") {
		t.Errorf("gemini: %v", err)
	}
}
