package engine_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/agent/claude"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
)

// BenchmarkHasHooksEmpty is the cost a host pays on every action when no
// hook is configured.
func BenchmarkHasHooksEmpty(b *testing.B) {
	e, err := engine.Load(engine.Options{Locations: config.Locations{
		EnterpriseFile: filepath.Join(b.TempDir(), "none.json"), Home: b.TempDir(), WorkspaceRoots: []string{b.TempDir()},
	}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if e.HasHooks(event.BeforeShellExecution) {
			b.Fatal("hooks configured")
		}
	}
}

// BenchmarkSpawn compares the engine running one trivial hook with the bare
// os/exec spawn of the same program with the same payload, environment
// and working directory, its stdout and stderr captured as any hook runner
// must: the floor. Compare the two with benchstat.
func BenchmarkSpawn(b *testing.B) {
	dir := b.TempDir()
	hook := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho '{\"permission\":\"allow\"}'\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		b.Fatal(err)
	}
	cfg, _ := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{"beforeShellExecution": []any{map[string]any{"command": hook}}}})
	if err := os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), cfg, 0o644); err != nil {
		b.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH")}
	e, err := engine.Load(engine.Options{
		Locations: config.Locations{Settings: agents.Settings(), EnterpriseFile: filepath.Join(dir, "none.json"), Home: home, WorkspaceRoots: []string{dir}},
		Env:       env,
	})
	if err != nil {
		b.Fatal(err)
	}
	payload := json.RawMessage(`{"conversation_id":"c","generation_id":"g","model":"m","cursor_version":"1","workspace_roots":["/w"],"user_email":null,"transcript_path":null,"command":"ls -la","cwd":"/w","sandbox":false}`)

	b.Run("bare", bareSpawn(hook, filepath.Join(home, ".cursor"), env, payload))
	b.Run("engine", func(b *testing.B) {
		for b.Loop() {
			d, err := e.Run(b.Context(), event.BeforeShellExecution, payload)
			if err != nil || d.Permission != event.Allow {
				b.Fatal(err, d.Permission)
			}
		}
	})
}

// BenchmarkEightSlowHooks runs eight hooks of 100 ms each: in parallel
// they take about 100 ms, not 800.
func BenchmarkEightSlowHooks(b *testing.B) {
	dir := b.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		b.Fatal(err)
	}
	hook := filepath.Join(dir, "slow.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nsleep 0.1\necho '{\"permission\":\"allow\"}'\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	var hooks []any
	for range 8 {
		hooks = append(hooks, map[string]any{"command": hook})
	}
	cfg, _ := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{"beforeShellExecution": hooks}})
	if err := os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), cfg, 0o644); err != nil {
		b.Fatal(err)
	}
	e, err := engine.Load(engine.Options{Locations: config.Locations{Settings: agents.Settings(), EnterpriseFile: filepath.Join(dir, "none.json"), Home: home, WorkspaceRoots: []string{dir}}})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		d, err := e.Run(b.Context(), event.BeforeShellExecution, json.RawMessage(`{"command":"ls"}`))
		if err != nil || len(d.Hooks) != 8 || d.Permission != event.Allow {
			b.Fatal(err, len(d.Hooks))
		}
	}
}

// BenchmarkClaudeHook is BenchmarkSpawn for a hook of ~/.claude/settings.json:
// the engine translates the payload to Claude Code's shape and reads the
// answer by Claude Code's rules; the floor is the bare spawn of the same
// hook with the Claude Code payload.
func BenchmarkClaudeHook(b *testing.B) {
	dir := b.TempDir()
	hook := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		b.Fatal(err)
	}
	cfg := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "` + hook + `"}]}]}}`
	if err := os.WriteFile(claude.UserFile(home), []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH")}
	e, err := engine.Load(engine.Options{
		Locations: config.Locations{Settings: agents.Settings(), EnterpriseFile: filepath.Join(dir, "none.json"), Home: home, WorkspaceRoots: []string{dir}},
		Env:       env,
	})
	if err != nil {
		b.Fatal(err)
	}
	payload := json.RawMessage(`{"conversation_id":"c","generation_id":"g","model":"m","cursor_version":"1","workspace_roots":["/w"],"user_email":null,"transcript_path":null,"tool_name":"Shell","tool_input":{"command":"ls -la"},"tool_use_id":"t","cwd":"/w"}`)
	claudePayload := []byte(`{"session_id":"c","transcript_path":null,"cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"},"tool_use_id":"t"}`)

	b.Run("bare", bareSpawn(hook, home, env, claudePayload))
	b.Run("engine", func(b *testing.B) {
		for b.Loop() {
			d, err := e.Run(b.Context(), event.PreToolUse, payload)
			if err != nil || d.Permission != event.Allow {
				b.Fatal(err, d.Permission)
			}
		}
	})
}

// bareSpawn is the floor: os/exec of the hook with its payload, env and
// working directory, stdout and stderr captured as any hook runner must.
func bareSpawn(hook, dir string, env []string, payload []byte) func(*testing.B) {
	return func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command(hook)
			cmd.Dir = dir
			cmd.Env = env
			cmd.Stdin = bytes.NewReader(payload)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Run(); err != nil || out.Len() == 0 {
				b.Fatal(err)
			}
		}
	}
}
