package host_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent/claude"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/host"
)

// TestCopilotRunsUserClaudeSettings: GitHub Copilot CLI runs the hooks of
// a project's .claude/settings.json and .claude/settings.local.json
// itself, not those of the user's ~/.claude/settings.json nor of the
// plugins the project's file enables. Under `run --from copilot`
// agenthooks runs exactly those: the user's PreToolUse guard records and
// denies, the plugin's recorder runs, and the project's recorders do not
// run a second time. Under `--from claude` none of Claude Code's own files
// run (Claude Code runs them all), and for Cursor all three do, which
// shows the project files are trusted and loadable. Each hook is a real
// process that records that it ran.
func TestCopilotRunsUserClaudeSettings(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	ws := filepath.Join(dir, "ws")
	log := filepath.Join(dir, "ran.log")
	hook := func(name, answer string) string {
		p := filepath.Join(dir, "scripts", name+".sh")
		writeFiles(t, map[string]string{p: "#!/bin/sh\ncat >/dev/null\necho " + name + " >> " + log + "\n" + answer})
		return `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "` + p + `"}]}]}}`
	}
	pluginRoot := filepath.Join(home, ".claude", "plugins", "cache", "mkt", "guard", "1.0.0")
	registry := `{"version": 2, "plugins": {"guard@mkt": [{"scope": "user", "installPath": "` + pluginRoot + `", "version": "1.0.0"}]}}`
	project := strings.TrimSuffix(hook("project", ""), "}") + `, "enabledPlugins": {"guard@mkt": true}}`
	deny := `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"user guard"}}'` + "\n"
	writeFiles(t, map[string]string{
		claude.ProjectFile(ws): project,
		claude.InstalledPluginsFile(filepath.Join(home, ".claude")): registry,
		filepath.Join(pluginRoot, ".claude-plugin", "plugin.json"):  `{"name": "guard", "version": "1.0.0"}`,
		claude.PluginHooksFile(pluginRoot):                          hook("plugin", ""),
		claude.LocalFile(ws):                                        hook("local", ""),
		claude.UserFile(home):                                       hook("user", deny),
		filepath.Join(home, ".cursor", "placeholder"):               "",
	})
	config := filepath.Join(dir, "config")
	ts := trustWorkspace(t, config, ws)
	environ := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home,
		"AGENTHOOKS_ENTERPRISE_CONFIG=" + filepath.Join(dir, "none.json"),
		"AGENTHOOKS_CONFIG_DIR=" + config,
	}
	h := host.Open(context.Background(), host.Options{Memory: true, Environ: environ})
	t.Cleanup(func() { _ = h.Close(context.Background()) })

	untrusted := func(t *testing.T) {
		if err := ts.Revoke(ws); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		before func(t *testing.T)
		req    host.Request
		want   []string
		deny   string // in the answer
	}{
		{"copilot", nil, host.Request{Agent: "copilot", Event: "preToolUse",
			Payload: []byte(`{"sessionId":"s","timestamp":1,"cwd":"` + ws + `","toolName":"bash","toolArgs":"{\"command\":\"rm -rf x\"}"}`)},
			[]string{"plugin", "user"}, `"permissionDecision":"deny"`},
		{"claude", nil, host.Request{Agent: "claude", Event: "PreToolUse",
			Payload: []byte(`{"session_id":"s","hook_event_name":"PreToolUse","cwd":"` + ws + `","tool_name":"Bash","tool_input":{"command":"rm -rf x"}}`)},
			nil, ""},
		{"cursor", nil, host.Request{Step: event.PreToolUse,
			Payload: []byte(`{"tool_name":"Shell","tool_input":{"command":"rm -rf x"}}`)},
			[]string{"local", "plugin", "project", "user"}, `"permission":"deny"`},
		// An untrusted project file enables no plugin, under Copilot too.
		{"copilot untrusted", untrusted, host.Request{Agent: "copilot", Event: "preToolUse",
			Payload: []byte(`{"sessionId":"s","timestamp":1,"cwd":"` + ws + `","toolName":"bash","toolArgs":"{\"command\":\"rm -rf x\"}"}`)},
			[]string{"user"}, `"permissionDecision":"deny"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.before != nil {
				tc.before(t)
			}
			if err := os.Remove(log); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			tc.req.Workspaces = []string{ws}
			rep := h.Run(context.Background(), tc.req)
			if rep.Fault != nil {
				t.Fatalf("fault: %v", rep.Fault)
			}
			data, err := os.ReadFile(log)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			got := strings.Fields(string(data))
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("hooks ran %q, want %q (problems %q)", got, tc.want, rep.Problems)
			}
			if tc.deny != "" && !strings.Contains(string(rep.Stdout), tc.deny) {
				t.Errorf("answer %s (code %d), want a deny %s", rep.Stdout, rep.Code, tc.deny)
			}
		})
	}
}
