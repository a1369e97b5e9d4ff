package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary builds the agenthooks command once per test process.
func binary(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agenthooks-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "agenthooks")
		out, err := exec.Command("go", "build", "-o", binPath, "../../cmd/agenthooks-engine").CombinedOutput()
		if err != nil {
			buildErr = err
			tb.Logf("%s", out)
		}
	})
	if buildErr != nil {
		tb.Fatalf("build agenthooks: %v", buildErr)
	}
	return binPath
}

// BenchmarkRunProcess compares a whole `agenthooks run` process running one
// trivial hook with the bare `sh -c` run of the same hook and payload: the
// floor. The difference is what a CLI host pays per step (process start,
// loading every source and the trust store, the state store's session
// read and log write).
func BenchmarkRunProcess(b *testing.B) {
	bin := binary(b)
	dir := b.TempDir()
	hook := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ncat >/dev/null\necho '{\"permission\":\"allow\"}'\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		b.Fatal(err)
	}
	cfg := []byte(`{"version":1,"hooks":{"beforeShellExecution":[{"command":"` + hook + `"}]}}`)
	if err := os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), cfg, 0o644); err != nil {
		b.Fatal(err)
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"AGENTHOOKS_CONFIG_DIR=" + filepath.Join(dir, "config"),
		"AGENTHOOKS_STATE_DIR=" + filepath.Join(dir, "state"),
		"AGENTHOOKS_ENTERPRISE_CONFIG=" + filepath.Join(dir, "none.json"),
	}
	payload := []byte(`{"conversation_id":"c","command":"ls -la","cwd":"/"}`)
	run := func(b *testing.B, name string, args ...string) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(args[0], args[1:]...)
				cmd.Env, cmd.Dir = env, dir
				cmd.Stdin = bytes.NewReader(payload)
				out, err := cmd.Output()
				if err != nil || !bytes.Contains(out, []byte("allow")) {
					b.Fatalf("%v: %s", err, out)
				}
			}
		})
	}
	run(b, "bare-sh", "/bin/sh", "-c", hook)
	run(b, "agenthooks-run", bin, "run", "beforeShellExecution")
}
