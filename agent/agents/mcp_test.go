package agents_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/agent/codex"
	"github.com/agenthooks/agenthooks/agent/gemini"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
)

// claudeMCPSettings denies every tool of the memory MCP server, as a
// Claude Code user writes it in ~/.claude/settings.json.
const claudeMCPSettings = `{"hooks":{"PreToolUse":[{"matcher":"mcp__memory__.*","hooks":[{"type":"command","command":"./deny-memory.sh"}]}]}}`

// TestMCPServerSurvivesEveryDialect: an MCP call keeps its server through
// each dialect, so a Claude Code settings matcher on mcp__memory__.*
// matches it as under Claude Code, and one on another server does not.
func TestMCPServerSurvivesEveryDialect(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hook is a POSIX shell script")
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	claudeDir := filepath.Join(home, ".claude")
	if err := os.MkdirAll(claudeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(claudeDir, "settings.json"), []byte(claudeMCPSettings), 0o644); err != nil {
		t.Fatal(err)
	}
	deny := `#!/bin/sh
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"memory is off limits"}}'
`
	if err := os.WriteFile(filepath.Join(home, "deny-memory.sh"), []byte(deny), 0o755); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.Load(engine.Options{Locations: config.Locations{
		Settings:       agents.Settings(),
		EnterpriseFile: filepath.Join(dir, "no-enterprise.json"), Home: home, WorkspaceRoots: []string{dir},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if p := eng.Problems(); len(p) > 0 {
		t.Fatalf("load problems: %v", p)
	}
	cases := []struct {
		d                     *agent.Dialect
		memory, other, denied string
	}{
		{codex.Dialect,
			`{"session_id":"x","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"mcp__memory__create_entities","tool_input":{"name":"a"}}`,
			`{"session_id":"x","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"mcp__github__create_issue","tool_input":{"title":"a"}}`,
			`"permissionDecision":"deny"`},
		{gemini.Dialect,
			`{"session_id":"g","cwd":"` + dir + `","hook_event_name":"BeforeTool","tool_name":"create_entities","tool_input":{"name":"a"},"mcp_context":{"server_name":"memory","tool_name":"create_entities"}}`,
			`{"session_id":"g","cwd":"` + dir + `","hook_event_name":"BeforeTool","tool_name":"create_issue","tool_input":{"title":"a"},"mcp_context":{"server_name":"github","tool_name":"create_issue"}}`,
			`"decision":"deny"`},
	}
	for _, tc := range cases {
		t.Run(tc.d.Name, func(t *testing.T) {
			a := hook(t, eng, tc.d, tc.memory, agent.Options{})
			if !strings.Contains(string(a.Stdout), tc.denied) || !strings.Contains(string(a.Stdout), "memory is off limits") {
				t.Errorf("the memory server's tool: answer %q, exit %d; want %s with the hook's reason", a.Stdout, a.Code, tc.denied)
			}
			a = hook(t, eng, tc.d, tc.other, agent.Options{})
			if strings.Contains(string(a.Stdout), "deny") {
				t.Errorf("another server's tool: answer %q, want no deny", a.Stdout)
			}
		})
	}
}
