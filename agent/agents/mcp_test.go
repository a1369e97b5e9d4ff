package agents_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/agent/claude"
	"github.com/agenthooks/agenthooks/agent/codex"
	"github.com/agenthooks/agenthooks/agent/contract"
	"github.com/agenthooks/agenthooks/agent/copilot"
	"github.com/agenthooks/agenthooks/agent/gemini"
	"github.com/agenthooks/agenthooks/agent/opencode"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
)

// claudeMCPSettings denies every tool of the memory MCP server, as a
// Claude Code user writes it in ~/.claude/settings.json; the hook says
// which name Claude Code's tool_name gave it.
const claudeMCPSettings = `{"hooks":{"PreToolUse":[{"matcher":"mcp__memory__.*","hooks":[{"type":"command","command":"./deny-memory.sh"}]}]}}`

const denyMemory = `#!/bin/sh
name=$(sed -n 's/.*"tool_name":"\([^"]*\)".*/\1/p')
echo "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"claude hook: memory is off limits ($name)\"}}"
`

// cursorMCPHooks is a Cursor hooks.json whose beforeMCPExecution hook
// refuses the memory server's tools by the server the payload names
// (beforeMCPExecution ignores matchers, so the hook reads the payload).
const cursorMCPHooks = `{"version":1,"hooks":{"beforeMCPExecution":[{"command":"./cursor-memory.sh"}]}}`

const cursorMemory = `#!/bin/sh
if grep -q '"server":"memory"'; then
  echo '{"permission":"deny","agent_message":"cursor hook: memory is off limits"}'
fi
`

// mcpEngine loads the Claude Code user settings and the Cursor user hooks
// above, leaving out the settings files the agent runs itself, as
// `agenthooks run --from` does.
func mcpEngine(t *testing.T, skip config.Skip) (*engine.Engine, string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the hooks are POSIX shell scripts")
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	files := map[string]string{
		".claude/settings.json":    claudeMCPSettings,
		"deny-memory.sh":           denyMemory,
		".cursor/hooks.json":       cursorMCPHooks,
		".cursor/cursor-memory.sh": cursorMemory,
	}
	for name, body := range files {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	eng, err := engine.Load(engine.Options{Locations: config.Locations{
		Settings:       agents.Settings(),
		EnterpriseFile: filepath.Join(dir, "no-enterprise.json"), Home: home, WorkspaceRoots: []string{dir},
		Skip: skip,
	}})
	if err != nil {
		t.Fatal(err)
	}
	if p := eng.Problems(); len(p) > 0 {
		t.Fatalf("load problems: %v", p)
	}
	return eng, dir
}

// TestMCPServerSurvivesEveryDialect: an MCP call keeps its server through
// each dialect, in the payload the agent really sends, so a Claude Code
// settings matcher on mcp__memory__.* and a Cursor beforeMCPExecution
// hook on the server "memory" stop the memory server's tool and let
// another server's through. Claude Code runs its settings hooks itself,
// so agenthooks does not run them there; Copilot CLI runs a project's
// Claude Code settings but not the user's, which this test uses, so
// agenthooks runs that one under Copilot.
func TestMCPServerSurvivesEveryDialect(t *testing.T) {
	const input = `"tool_input":{"name":"a"}`
	cases := []struct {
		d *agent.Dialect
		// memory is a call of the memory server's create_entities, other
		// one of another server's tool.
		memory, other string
		// claudeName is the tool_name the Claude Code hook is given.
		claudeName string
	}{
		{d: claude.Dialect,
			memory: `{"session_id":"c","transcript_path":"/t.jsonl","cwd":"DIR","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"mcp__memory__create_entities",` + input + `,"tool_use_id":"toolu_1"}`,
			other:  `{"session_id":"c","transcript_path":"/t.jsonl","cwd":"DIR","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"mcp__github__create_issue",` + input + `,"tool_use_id":"toolu_2"}`},
		{d: codex.Dialect,
			memory:     `{"session_id":"x","turn_id":"1","cwd":"DIR","hook_event_name":"PreToolUse","model":"gpt-5","tool_name":"mcp__memory__create_entities",` + input + `,"tool_use_id":"call_1"}`,
			other:      `{"session_id":"x","turn_id":"1","cwd":"DIR","hook_event_name":"PreToolUse","model":"gpt-5","tool_name":"mcp__github__create_issue",` + input + `,"tool_use_id":"call_2"}`,
			claudeName: "mcp__memory__create_entities"},
		// Gemini CLI 0.61 names the tool mcp_<server>_<tool> and says
		// which server in mcp_context.
		{d: gemini.Dialect,
			memory:     `{"session_id":"g","cwd":"DIR","hook_event_name":"BeforeTool","tool_name":"mcp_memory_create_entities",` + input + `,"mcp_context":{"server_name":"memory","tool_name":"create_entities","command":"node","args":["mcp.js"]}}`,
			other:      `{"session_id":"g","cwd":"DIR","hook_event_name":"BeforeTool","tool_name":"mcp_github_create_issue",` + input + `,"mcp_context":{"server_name":"github","tool_name":"create_issue","url":"https://api.example/mcp"}}`,
			claudeName: "mcp__memory__create_entities"},
		// Copilot CLI 1.0.102, as its preToolUse hooks received them from a
		// stdio MCP server named memory: <server>-<tool>, in both formats.
		// It does not run the user's Claude Code settings itself, so
		// agenthooks does.
		{d: copilot.Dialect,
			memory:     `{"sessionId":"7c65","timestamp":1795840924863,"cwd":"DIR","toolName":"memory-create_entities","toolArgs":{"name":"a"}}`,
			other:      `{"sessionId":"7c65","timestamp":1795840924863,"cwd":"DIR","toolName":"github-mcp-server-create_issue","toolArgs":{"name":"a"}}`,
			claudeName: "mcp__memory__create_entities"},
		{d: copilot.Dialect,
			memory:     `{"hook_event_name":"PreToolUse","session_id":"7c65","timestamp":"2026-11-28T04:42:04.863Z","cwd":"DIR","tool_name":"memory-create_entities",` + input + `}`,
			other:      `{"hook_event_name":"PreToolUse","session_id":"7c65","timestamp":"2026-11-28T04:42:04.863Z","cwd":"DIR","tool_name":"github-mcp-server-create_issue",` + input + `}`,
			claudeName: "mcp__memory__create_entities"},
		// OpenCode 1.18.33 names the tool <server>_<tool>; the adapter adds
		// the servers OpenCode has.
		{d: opencode.Dialect,
			memory:     `{"hook":"tool.execute.before","input":{"tool":"memory_create_entities","sessionID":"ses_1","callID":"call_2"},"output":{"args":{"name":"a"}},"directory":"DIR","mcp_servers":["memory","my-notes"]}`,
			other:      `{"hook":"tool.execute.before","input":{"tool":"my-notes_create_entities","sessionID":"ses_1","callID":"call_3"},"output":{"args":{"name":"a"}},"directory":"DIR","mcp_servers":["memory","my-notes"]}`,
			claudeName: "mcp__memory__create_entities"},
		// The contract passes on the calling agent's name (Claude Code's
		// here).
		{d: contract.Dialect,
			memory:     `{"tool_name":"mcp__memory__create_entities",` + input + `}`,
			other:      `{"tool_name":"mcp__github__create_issue",` + input + `}`,
			claudeName: "mcp__memory__create_entities"},
	}
	for _, tc := range cases {
		t.Run(tc.d.Name, func(t *testing.T) {
			eng, dir := mcpEngine(t, agents.SkipOf(tc.d.RunsItself))
			a := hook(t, eng, tc.d, strings.ReplaceAll(tc.memory, "DIR", dir), agent.Options{})
			out := string(a.Stdout) + string(a.Stderr)
			if !denied(a) || !strings.Contains(out, "cursor hook: memory is off limits") {
				t.Errorf("the memory server's tool: answer %q %q, exit %d; want a deny with the Cursor hook's reason", a.Stdout, a.Stderr, a.Code)
			}
			claudeRan := strings.Contains(out, "claude hook: memory is off limits")
			if tc.claudeName == "" {
				if claudeRan {
					t.Errorf("the agent runs Claude Code's settings itself, but agenthooks ran them too: %s", out)
				}
			} else if !claudeRan || !strings.Contains(out, "("+tc.claudeName+")") {
				t.Errorf("the memory server's tool: answer %q; want the Claude Code hook's deny, given tool_name %s", out, tc.claudeName)
			}
			a = hook(t, eng, tc.d, strings.ReplaceAll(tc.other, "DIR", dir), agent.Options{})
			if denied(a) || strings.Contains(string(a.Stdout)+string(a.Stderr), "off limits") {
				t.Errorf("another server's tool: answer %q %q, exit %d; want no deny", a.Stdout, a.Stderr, a.Code)
			}
		})
	}
}

// denied: the answer refuses the call, in any dialect's words.
func denied(a agent.Answer) bool {
	s := string(a.Stdout)
	return a.Code == 2 || strings.Contains(s, `"deny"`) || strings.Contains(s, `"error"`)
}

// TestMCPServerLeftOpen: where the agent's name of an MCP tool leaves the
// server open, the Claude Code matcher on one server never misses it.
// Copilot's <server>-<tool> with a "-" in both parts is read every way,
// so mcp__memory-bank__.* stops memory-bank-save-note; an OpenCode
// adapter that does not send the servers leaves an id with a "_" a tool
// of its own name, read every way too; Cursor's own MCP:<tool> (and the
// contract's, from a Cursor wrapper) says nothing of the server, so a
// matcher on a server runs for the tool whatever its server.
func TestMCPServerLeftOpen(t *testing.T) {
	eng, dir := claudeEngine(t, `{"hooks":{"PreToolUse":[
	  {"matcher":"mcp__memory-bank__.*","hooks":[{"type":"command","command":"./deny-memory.sh"}]},
	  {"matcher":"mcp__memory__save","hooks":[{"type":"command","command":"./deny-memory.sh"}]}]}}`)
	cases := []struct {
		name string
		d    *agent.Dialect
		in   string
		deny bool
	}{
		{"copilot both parts hyphenated", copilot.Dialect,
			`{"sessionId":"s","cwd":"` + dir + `","toolName":"memory-bank-save-note","toolArgs":{}}`, true},
		{"copilot another server", copilot.Dialect,
			`{"sessionId":"s","cwd":"` + dir + `","toolName":"memory-banks-save-note","toolArgs":{}}`, false},
		{"opencode adapter without servers", opencode.Dialect,
			`{"hook":"tool.execute.before","input":{"tool":"memory_save","sessionID":"s","callID":"c"},"output":{"args":{}},"directory":"` + dir + `"}`, true},
		{"opencode adapter without servers, another tool", opencode.Dialect,
			`{"hook":"tool.execute.before","input":{"tool":"notes_save","sessionID":"s","callID":"c"},"output":{"args":{}},"directory":"` + dir + `"}`, false},
		{"gemini without mcp_context", gemini.Dialect,
			`{"session_id":"g","cwd":"` + dir + `","hook_event_name":"BeforeTool","tool_name":"mcp_memory_save","tool_input":{}}`, true},
		{"gemini without mcp_context, another tool", gemini.Dialect,
			`{"session_id":"g","cwd":"` + dir + `","hook_event_name":"BeforeTool","tool_name":"mcp_notes_load","tool_input":{}}`, false},
		{"contract from a Cursor wrapper", contract.Dialect,
			`{"tool_name":"MCP:save","tool_input":{}}`, true},
		{"contract, a tool of no MCP server", contract.Dialect,
			`{"tool_name":"Grep","tool_input":{"pattern":"x"}}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := hook(t, eng, tc.d, tc.in, agent.Options{})
			if got := denied(a); got != tc.deny {
				t.Errorf("answer %q %q, exit %d; want deny %v", a.Stdout, a.Stderr, a.Code, tc.deny)
			}
		})
	}
	// Cursor itself: preToolUse of MCP:<tool>, which names no server, so
	// mcp__memory-bank__.* runs for every MCP tool, and no Claude Code
	// matcher on an MCP server runs for another tool.
	for _, tc := range []struct {
		tool, input string
		deny        bool
	}{{"MCP:save", `{}`, true}, {"MCP:load", `{}`, true}, {"Shell", `{"command":"ls"}`, false}, {"Read", `{"file_path":"/x"}`, false}} {
		body := `{"conversation_id":"c","generation_id":"g","hook_event_name":"preToolUse","tool_name":"` + tc.tool + `","tool_input":` + tc.input + `,"tool_use_id":"t","cwd":"` + dir + `"}`
		dec, err := eng.Run(context.Background(), event.PreToolUse, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if got := dec.Permission == event.Deny; got != tc.deny {
			t.Errorf("Cursor preToolUse %s: permission %q; want deny %v", tc.tool, dec.Permission, tc.deny)
		}
	}
}

// TestMCPMatcherOfUnnamedServer: for an MCP tool whose server the payload
// does not name, a Claude Code matcher is tried under each server it
// names, so it runs for its own tools whatever the server and for no
// other tool.
func TestMCPMatcherOfUnnamedServer(t *testing.T) {
	eng, dir := claudeEngine(t, `{"hooks":{"PreToolUse":[{"matcher":"mcp__(memory|notes)__save","hooks":[{"type":"command","command":"./deny-memory.sh"}]}]}}`)
	for tool, deny := range map[string]bool{"MCP:save": true, "MCP:load": false, "MCP:autosave": false, "Grep": false} {
		body := `{"conversation_id":"c","generation_id":"g","hook_event_name":"preToolUse","tool_name":"` + tool + `","tool_input":{},"tool_use_id":"t","cwd":"` + dir + `"}`
		dec, err := eng.Run(context.Background(), event.PreToolUse, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if got := dec.Permission == event.Deny; got != deny {
			t.Errorf("Cursor preToolUse %s: permission %q; want deny %v", tool, dec.Permission, deny)
		}
	}
}

// claudeEngine loads ~/.claude/settings.json holding settings, whose
// hooks run deny-memory.sh, and returns the engine and the workspace.
func claudeEngine(t *testing.T, settings string) (*engine.Engine, string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the hooks are POSIX shell scripts")
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "deny-memory.sh"), []byte(denyMemory), 0o755); err != nil {
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
	return eng, dir
}
