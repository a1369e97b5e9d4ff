package host_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/host"
)

// BenchmarkRunLargeRead answers a read of a 10 MB file as `agenthooks run
// beforeReadFile` and `agenthooks run --from claude` do in one process,
// state store included, with one hook that reads its stdin and says
// nothing: the host's cost per byte of payload beside the hook's own.
func BenchmarkRunLargeRead(b *testing.B) {
	dir := b.TempDir()
	home, ws := filepath.Join(dir, "home"), filepath.Join(dir, "ws")
	for _, d := range []string{filepath.Join(home, ".cursor"), ws} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	hooks := `{"version":1,"hooks":{"beforeReadFile":[{"command":"cat >/dev/null"}]}}`
	if err := os.WriteFile(config.UserFile(home), []byte(hooks), 0o644); err != nil {
		b.Fatal(err)
	}
	content := strings.Repeat("line of a large file, with \"quotes\" and \\ slashes\n", 10<<20/52)
	file := filepath.Join(ws, "big.txt")
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
	cursor, _ := json.Marshal(map[string]any{"conversation_id": "c", "generation_id": "g", "file_path": file, "content": content, "attachments": []any{}, "workspace_roots": []string{ws}})
	claude, _ := json.Marshal(map[string]any{"session_id": "c", "transcript_path": "/t", "cwd": ws, "hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": map[string]any{"file_path": file}, "tool_use_id": "t"})
	b.Setenv("AGENTHOOKS_CONFIG_DIR", filepath.Join(dir, "config"))
	b.Setenv("AGENTHOOKS_STATE_DIR", filepath.Join(dir, "state"))
	open := func() *host.Host {
		return host.Open(context.Background(), host.Options{
			Environ: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home},
			Locations: func(roots []string) config.Locations {
				return config.Locations{Home: home, EnterpriseFile: filepath.Join(dir, "none.json"), WorkspaceRoots: roots}
			},
		})
	}
	for _, c := range []struct {
		name string
		req  host.Request
	}{
		{"cursor", host.Request{Step: event.BeforeReadFile, Payload: cursor}},
		{"claude", host.Request{Agent: "claude", Payload: claude, Workspaces: []string{ws}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				h := open()
				rep := h.Run(b.Context(), c.req)
				if rep.Fault != nil || rep.Code != 0 {
					b.Fatalf("fault %v, code %d: %s", rep.Fault, rep.Code, rep.Stderr)
				}
				if err := h.Close(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
