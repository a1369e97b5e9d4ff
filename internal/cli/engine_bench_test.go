package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	settle()
	req := &wire.Request{Args: []string{"run", "beforeShellExecution"}, Dir: home, Env: os.Environ()}
	payload := []byte(`{"command":"ls","cwd":"/"}`)
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := handleServed(ctx, h, req, payload, &out, &errb); code != 0 {
			b.Fatalf("code %d: %s", code, errb.String())
		}
		h.Flush(ctx)
	}
}

// BenchmarkEngineOneHook is the engine's cost of a step that runs one
// trivial hook, in process, beside the bare spawn of that hook: the
// difference is what the engine adds to the hook's own cost.
func BenchmarkEngineOneHook(b *testing.B) {
	benchEngineHook(b, "beforeShellExecution", []byte(`{"command":"ls","cwd":"/"}`))
}

// BenchmarkEngineLargeRead is the same for a 10 MB beforeReadFile.
func BenchmarkEngineLargeRead(b *testing.B) {
	content := strings.Repeat("0123456789abcdef", 10<<20/16)
	benchEngineHook(b, "beforeReadFile", []byte(`{"file_path":"/tmp/big.txt","content":"`+content+`","attachments":[]}`))
}

func benchEngineHook(b *testing.B, step string, payload []byte) {
	home := b.TempDir()
	hook := filepath.Join(home, "trivial.sh")
	os.WriteFile(hook, []byte("#!/bin/sh\ncat >/dev/null\necho '{}'\n"), 0o755)
	os.MkdirAll(filepath.Join(home, ".cursor"), 0o755)
	os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), []byte(`{"version":1,"hooks":{"`+step+`":[{"command":"`+hook+`"}]}}`), 0o644)
	b.Setenv("HOME", home)
	b.Setenv("AGENTHOOKS_STATE_DIR", filepath.Join(home, "state"))
	b.Run("bare-hook", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command(hook)
			cmd.Stdin = bytes.NewReader(payload)
			if _, err := cmd.Output(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("engine", func(b *testing.B) {
		ctx := context.Background()
		h := host.Open(ctx, host.Options{TrustDir: filepath.Join(home, "trust")})
		defer h.Close(ctx)
		settle()
		req := &wire.Request{Args: []string{"run", step}, Dir: home, Env: os.Environ()}
		for b.Loop() {
			var out, errb bytes.Buffer
			if code := handleServed(ctx, h, req, payload, &out, &errb); code != 0 {
				b.Fatalf("code %d: %s", code, errb.String())
			}
			h.Flush(ctx)
		}
	})
}

// settle waits until the files and folders just written (the hooks, the
// state store's folder in the home folder) are older than the racy window:
// until then every step loads them again, since their times cannot yet
// prove them unchanged. A user's files are older than that; the
// benchmarks time the steady state.
func settle() { time.Sleep(2100 * time.Millisecond) }
