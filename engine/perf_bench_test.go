package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

// BenchmarkLoad1000Hooks is what one `agenthooks run` process pays before
// its first hook starts when 1,000 hooks are configured: load every
// source, then run a step none of them applies to. Each hook has its own
// matcher, so no two compilations could be shared.
func BenchmarkLoad1000Hooks(b *testing.B) {
	dir := b.TempDir()
	home := filepath.Join(dir, "home")
	ent := filepath.Join(dir, "etc", "hooks.json")
	root := filepath.Join(dir, "ws")
	steps := []string{"preToolUse", "postToolUse", "afterFileEdit", "stop", "beforeReadFile"}
	// Each round writes matchers never seen before in this process, so
	// that every round pays what a fresh process pays.
	write := func(path, name string, round int) {
		hooks := map[string][]any{}
		for i := range 250 {
			s := steps[i%len(steps)]
			hooks[s] = append(hooks[s], map[string]any{
				"command": fmt.Sprintf("./hooks/%s-%d.sh --flag", name, i), "timeout": 30, "failClosed": true,
				"matcher": fmt.Sprintf("Shell|Read|Write|Stop|MCP:.*%s%d_%d", name, i, round),
			})
		}
		data, err := json.Marshal(map[string]any{"version": 1, "hooks": hooks})
		if err != nil {
			b.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	opts := engine.Options{
		Locations: config.Locations{Settings: agents.Settings(), EnterpriseFile: ent, Home: home, WorkspaceRoots: []string{root}},
		Trust:     benchTrust{},
		Env:       []string{"PATH=/usr/bin:/bin"},
	}
	payload := json.RawMessage(`{"conversation_id":"c","command":"ls -la","cwd":"/w"}`)
	b.ReportAllocs()
	round := 0
	for b.Loop() {
		b.StopTimer()
		round++
		write(ent, "ent", round)
		write(filepath.Join(config.TeamHooksDir(home, "1"), "hooks.json"), "team", round)
		write(config.UserFile(home), "user", round)
		write(config.ProjectFile(root), "project", round)
		b.StartTimer()
		e, err := engine.Load(opts)
		if err != nil {
			b.Fatal(err)
		}
		if n := len(e.Hooks()); n != 1000 {
			b.Fatalf("%d hooks loaded, problems %v", n, e.Problems())
		}
		d, err := e.Run(b.Context(), event.BeforeShellExecution, payload)
		if err != nil || len(d.Hooks) != 0 {
			b.Fatal(err, d)
		}
	}
}

// benchTrust trusts every project file.
type benchTrust struct{}

func (benchTrust) Check(root, path string, data []byte) (bool, string) { return true, "" }

// BenchmarkRunLargePayload runs one in-process hook on a beforeReadFile
// payload carrying a 10 MB file: the engine's own cost per byte of
// payload, with no process spawned.
func BenchmarkRunLargePayload(b *testing.B) {
	dir := b.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		b.Fatal(err)
	}
	cfg := `{"version":1,"hooks":{"beforeReadFile":[{"command":"in-process","matcher":"Read"}]}}`
	if err := os.WriteFile(config.UserFile(home), []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	var got int
	allow := runner.Func(func(_ context.Context, req runner.Request) runner.Result {
		got = len(req.Payload)
		return runner.Result{Response: &event.Response{Permission: event.Allow}}
	})
	e, err := engine.Load(engine.Options{
		Locations: config.Locations{Settings: agents.Settings(), EnterpriseFile: filepath.Join(dir, "none.json"), Home: home, WorkspaceRoots: []string{dir}},
		Runners:   map[string]runner.Runner{config.TypeCommand: allow},
		Env:       []string{"PATH=/usr/bin:/bin"},
	})
	if err != nil {
		b.Fatal(err)
	}
	content, _ := json.Marshal(strings.Repeat("line of a large file, with \"quotes\" and \\ slashes\n", 10<<20/52))
	payload := json.RawMessage(`{"conversation_id":"c","generation_id":"g","file_path":"/w/big.txt","content":` + string(content) + `,"attachments":[]}`)
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for b.Loop() {
		d, err := e.Run(b.Context(), event.BeforeReadFile, payload)
		if err != nil || d.Permission != event.Allow || got < len(payload) {
			b.Fatal(err, d.Permission, got)
		}
	}
}
