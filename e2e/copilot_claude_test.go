//go:build unix

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/internal/fakemodel"
)

// claudeGuardMarker is in the deny reason of the user's Claude Code guard.
const claudeGuardMarker = "AGENTHOOKS-E2E-CLAUDE-GUARD-3K9"

// claudeRecorder is a Claude Code settings file whose PreToolUse hook
// appends "<name>-deny" to $E2E_CLAUDE_LOG for a command that creates
// denied.txt and "<name>-allow" for any other; with guard set it denies
// the first, in Claude Code's words.
func claudeRecorder(t *testing.T, dir, name string, guard bool) string {
	script := filepath.Join(dir, "claude-"+name+".sh")
	body := `#!/bin/sh
payload=$(cat)
case "$payload" in
*denied.txt*) printf '%s\n' ` + name + `-deny >> "$E2E_CLAUDE_LOG" ;;
*) printf '%s\n' ` + name + `-allow >> "$E2E_CLAUDE_LOG"; exit 0 ;;
esac
`
	if guard {
		body += `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + claudeGuardMarker + `"}}'` + "\n"
	}
	mustWrite(t, script, body, 0o755)
	return `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"` + script + `"}]}]}}`
}

// TestCopilotRunsClaudeSettings: GitHub Copilot CLI runs the hooks of a
// project's .claude/settings.json and .claude/settings.local.json itself
// (in a folder it trusts), but not those of the user's Claude Code
// settings, at ~/.claude or $CLAUDE_CONFIG_DIR, nor those of a plugin the
// project's file enables: agenthooks, wired at the user scope, runs
// exactly those. Each file's hook runs once per tool
// call, and the user's guard denies a command, which never runs.
func TestCopilotRunsClaudeSettings(t *testing.T) {
	for _, moved := range []bool{false, true} {
		name := map[bool]string{false: "home", true: "CLAUDE_CONFIG_DIR"}[moved]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorkspace(t)
			bin := agent(t, "copilot")
			model := fakemodel.NewOpenAI(fakemodel.Script{Steps: []fakemodel.Step{
				fakemodel.Call("bash", map[string]any{"command": "touch denied.txt", "description": "Touch a file."}),
				fakemodel.Call("bash", map[string]any{"command": "echo hi", "description": "Say hi."}),
				fakemodel.Say("done"),
			}})
			defer model.Close()
			args := copilotCase("user").setup(t, w, model.URL())
			log := filepath.Join(w.Home, "claude.log")
			w.Setenv("E2E_CLAUDE_LOG", log)
			scripts := filepath.Join(w.Home, "scripts")
			mustMkdir(t, scripts)
			mustMkdir(t, filepath.Join(w.Dir, ".claude"))
			// The project's file enables a plugin installed in the user's
			// Claude Code folder (wherever CLAUDE_CONFIG_DIR puts it).
			project := strings.TrimSuffix(claudeRecorder(t, scripts, "project", false), "}") + `,"enabledPlugins":{"guard@mkt":true}}`
			mustWrite(t, filepath.Join(w.Dir, ".claude", "settings.json"), project, 0o644)
			mustWrite(t, filepath.Join(w.Dir, ".claude", "settings.local.json"), claudeRecorder(t, scripts, "local", false), 0o644)
			userDir := filepath.Join(w.Home, ".claude")
			if moved {
				// The file at ~/.claude is then not the user's: no one runs it.
				mustMkdir(t, userDir)
				mustWrite(t, filepath.Join(userDir, "settings.json"), claudeRecorder(t, scripts, "unused", true), 0o644)
				userDir = filepath.Join(w.Home, "claude-config")
				w.Setenv("CLAUDE_CONFIG_DIR", userDir)
			}
			mustMkdir(t, userDir)
			mustWrite(t, filepath.Join(userDir, "settings.json"), claudeRecorder(t, scripts, "user", true), 0o644)
			plugin := filepath.Join(userDir, "plugins", "cache", "mkt", "guard", "1.0.0")
			mustMkdir(t, filepath.Join(plugin, ".claude-plugin"))
			mustMkdir(t, filepath.Join(plugin, "hooks"))
			mustWrite(t, filepath.Join(plugin, ".claude-plugin", "plugin.json"), `{"name":"guard","version":"1.0.0"}`, 0o644)
			mustWrite(t, filepath.Join(plugin, "hooks", "hooks.json"), claudeRecorder(t, scripts, "plugin", false), 0o644)
			mustWrite(t, filepath.Join(userDir, "plugins", "installed_plugins.json"),
				`{"version":2,"plugins":{"guard@mkt":[{"scope":"user","installPath":"`+plugin+`","version":"1.0.0"}]}}`, 0o644)
			w.agenthooks("install", "--agent", "copilot", "--scope", "user")
			// agenthooks runs the project file's plugins once it trusts the file.
			w.agenthooks("trust", w.Dir)
			// Copilot CLI runs a project's hooks in a folder it trusts.
			mustWrite(t, filepath.Join(w.Home, ".copilot", "config.json"), `{"trustedFolders":["`+w.Dir+`"]}`, 0o644)

			ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
			defer cancel()
			out, err := w.run(ctx, bin, args...)
			if err != nil {
				t.Errorf("copilot: %v", err)
			}
			var allowed, denied []string
			for _, l := range lines(log) {
				if n, ok := strings.CutSuffix(l, "-allow"); ok {
					allowed = append(allowed, n)
				} else {
					denied = append(denied, strings.TrimSuffix(l, "-deny"))
				}
			}
			slices.Sort(allowed)
			if want := []string{"local", "plugin", "project", "user"}; !slices.Equal(allowed, want) {
				t.Errorf("for the allowed call the Claude Code hooks ran %q, want each file's once: %q", allowed, want)
			}
			if !slices.Contains(denied, "user") || slices.Contains(denied, "unused") {
				t.Errorf("for the denied call the Claude Code hooks ran %q, want the user's guard and not ~/.claude's when moved", denied)
			}
			for _, n := range []string{"project", "local", "user", "plugin"} {
				if c := strings.Count(strings.Join(denied, " ")+" ", n+" "); c > 1 {
					t.Errorf("the %s file's hook ran %d times for the denied call", n, c)
				}
			}
			if _, err := os.Stat(filepath.Join(w.Dir, "denied.txt")); err == nil {
				t.Errorf("denied.txt exists: the user's Claude Code guard did not stop the command")
			}
			results := model.ToolResults()
			if len(results) == 0 || !strings.Contains(results[0], claudeGuardMarker) {
				t.Errorf("the denied call's tool result does not carry the guard's reason (%s): %q", claudeGuardMarker, results)
			}
			if t.Failed() {
				t.Logf("copilot %s:\n%s\nClaude Code hooks: %q", pinnedVersion("@github/copilot"), out, lines(log))
			}
		})
	}
}
