package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// BenchmarkEngineStep is the resident engine's own cost of one step with
// no hooks, in process: what a client waits for beyond its own start.
func BenchmarkEngineStep(b *testing.B) {
	home := b.TempDir()
	os.MkdirAll(filepath.Join(home, ".cursor"), 0o755)
	os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), []byte(`{"version":1,"hooks":{"beforeShellExecution":[{"command":"echo {}","matcher":"git push"}]}}`), 0o644)
	b.Setenv("HOME", home)
	b.Setenv("AGENTHOOKS_STATE_DIR", filepath.Join(home, "state"))
	ctx := context.Background()
	h := host.Open(ctx, host.Options{TrustDir: filepath.Join(home, "trust")})
	defer h.Close(ctx)
	e := &engineHost{host: h, kick: make(chan struct{}, 1)}
	req := &wire.Request{Args: []string{"run", "beforeShellExecution"}, Dir: home, Env: os.Environ()}
	payload := []byte(`{"command":"ls","cwd":"/"}`)
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := e.handle(ctx, req, bytes.NewReader(payload), &out, &errb); code != 0 {
			b.Fatalf("code %d: %s", code, errb.String())
		}
		h.Flush(ctx)
	}
}
