package host_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent/claude"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/host"
)

// writeFiles writes each path → content, making the folders.
func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// TestClaudeConfigDirMovesUserFolder: CLAUDE_CONFIG_DIR in the host's
// environment moves Claude Code's user folder as it does for Claude Code:
// the user settings file and the plugins are read there, and those under
// ~/.claude are not. Each hook is a real process that records that it ran.
func TestClaudeConfigDirMovesUserFolder(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	moved := filepath.Join(dir, "claude-config")
	ws := filepath.Join(dir, "ws")
	log := filepath.Join(dir, "ran.log")
	hook := func(name string) string {
		p := filepath.Join(dir, "scripts", name+".sh")
		writeFiles(t, map[string]string{p: "#!/bin/sh\ncat >/dev/null\necho " + name + " >> " + log + "\n"})
		return p
	}
	group := func(command string) string {
		return `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "` + command + `"}]}]}}`
	}
	pluginRoot := filepath.Join(moved, "plugins", "cache", "guard")
	registry, err := json.Marshal(map[string]any{"plugins": map[string]any{"guard@market": []map[string]string{{"installPath": pluginRoot}}}})
	if err != nil {
		t.Fatal(err)
	}
	withPlugin := strings.TrimSuffix(group(hook("moved-user")), "}") + `, "enabledPlugins": {"guard@market": true}}`
	writeFiles(t, map[string]string{
		filepath.Join(moved, "settings.json"):                    withPlugin,
		claude.InstalledPluginsFile(moved):                       string(registry),
		filepath.Join(pluginRoot, "hooks", "hooks.json"):         group(hook("moved-plugin")),
		claude.UserFile(home):                                    group(hook("home-user")),
		filepath.Join(ws, "README"):                              "",
		filepath.Join(dir, "config", "placeholder"):              "",
		filepath.Join(home, ".cursor", "placeholder"):            "",
		filepath.Join(home, ".claude", "plugins", "placeholder"): "",
	})

	environ := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "CLAUDE_CONFIG_DIR=" + moved,
		"AGENTHOOKS_ENTERPRISE_CONFIG=" + filepath.Join(dir, "none.json"),
		"AGENTHOOKS_CONFIG_DIR=" + filepath.Join(dir, "config"),
	}
	h := host.Open(context.Background(), host.Options{Memory: true, Environ: environ})
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	rep := h.Run(context.Background(), host.Request{Step: event.PreToolUse, Workspaces: []string{ws},
		Payload: []byte(`{"tool_name":"Shell","tool_input":{"command":"ls"}}`)})
	if rep.Fault != nil {
		t.Fatalf("fault: %v", rep.Fault)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("no hook ran: %v (problems %v)", err, rep.Problems)
	}
	got := strings.Fields(string(data))
	slices.Sort(got)
	if want := []string{"moved-plugin", "moved-user"}; !slices.Equal(got, want) {
		t.Errorf("hooks ran %q, want %q: the user folder is $CLAUDE_CONFIG_DIR", got, want)
	}
}
