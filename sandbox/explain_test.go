package sandbox

import (
	"strings"
	"testing"
)

// TestExplain: a refusal a program prints is traced to the rule that made
// it, with the file that set that rule; refusals the sandbox did not cause
// (a path it allows) and lines that are not refusals say nothing.
func TestExplain(t *testing.T) {
	ws := "/work/app"
	base := Policy{Configured: true, Type: WorkspaceReadwrite, TypeFrom: "/etc/cursor/sandbox.json", ReadBoundary: ReadSystem,
		Roots: []string{ws}, Network: Network{Default: NetDeny, DefaultFrom: "/work/app/.cursor/sandbox.json"}}
	cases := []struct {
		name   string
		edit   func(*Policy)
		output string
		want   []string // one note each, by a part of it
	}{
		{"write outside", nil, "sh: 1: cannot create /etc/x: Permission denied",
			[]string{`writing /etc/x is refused: type is "workspace_readwrite" (/etc/cursor/sandbox.json)`}},
		{"the shell names itself first", nil, "/bin/sh: 1: cannot create /outside/o.txt: Permission denied",
			[]string{`writing /outside/o.txt is refused`}},
		{"bash's line number", nil, "/usr/bin/bash: line 3: /outside/o.txt: Permission denied",
			[]string{`writing /outside/o.txt is refused`}},
		{"relative path inside", nil, "touch: cannot touch './out.txt': Permission denied", nil},
		{"readonly workspace", func(p *Policy) { p.Type = WorkspaceReadonly }, "touch: cannot touch './out.txt': Permission denied",
			[]string{`writing /work/app/out.txt is refused: type is "workspace_readonly"`}},
		{"read boundary", func(p *Policy) { p.ReadBoundary = ReadWorkspace; p.ReadBoundaryFrom = "/home/u/.cursor/sandbox.json" },
			"cat: /home/u/secrets/key: Permission denied",
			[]string{`reading /home/u/secrets/key is refused: readBoundary is "workspace" (/home/u/.cursor/sandbox.json)`}},
		{"direct connection", nil, "curl: (7) Failed to connect to 1.2.3.4 port 443: Permission denied\nnc: connect: Operation not permitted",
			[]string{"direct network connections are refused", "(/work/app/.cursor/sandbox.json)"}},
		{"not a refusal", nil, "fatal: not a git repository", nil},
		{"the proxy's own words", nil, "agenthooks sandbox: network access refused: evil.com is not in networkPolicy.allow", nil},
		{"off", func(p *Policy) { p.Type = InsecureNone }, "sh: 1: cannot create /etc/x: Permission denied", nil},
	}
	for _, c := range cases {
		p := base
		if c.edit != nil {
			c.edit(&p)
		}
		notes := Explain(p, ws, c.output)
		if len(c.want) == 0 {
			if len(notes) != 0 {
				t.Errorf("%s: notes %q, want none", c.name, notes)
			}
			continue
		}
		joined := strings.Join(notes, "\n")
		if len(notes) != 1 {
			t.Errorf("%s: notes %q, want one", c.name, notes)
		}
		for _, w := range c.want {
			if !strings.Contains(joined, w) {
				t.Errorf("%s: notes %q lack %q", c.name, notes, w)
			}
		}
	}
}
