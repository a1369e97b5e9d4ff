//go:build unix

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/needs"
)

// TestRunFromTermStopsHooks: `run --from` stopped by SIGTERM (an agent
// giving up on its hook) stops its hooks too, and answers as the agent
// expects a failing hook to, instead of dying and leaving them running.
func TestRunFromTermStopsHooks(t *testing.T) {
	needs.Short(t, "the command line's tests that build the agenthooks binary (signals, terminals, version stamps)")
	bin := buildBinary(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(root, "hook.pid")
	hooks, _ := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{
		"beforeShellExecution": []any{map[string]string{"command": "echo $$ > " + pidFile + "; exec sleep 60"}},
	}})
	if err := os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), hooks, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--from", "claude")
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(root, "xdg"),
		"AGENTHOOKS_STATE_DIR="+filepath.Join(root, "state"),
		"AGENTHOOKS_CONFIG_DIR="+filepath.Join(root, "config"),
		"AGENTHOOKS_ENTERPRISE_CONFIG="+filepath.Join(root, "etc", "hooks.json"),
	)
	cmd.Stdin = strings.NewReader(`{"session_id":"s","cwd":"` + root + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid string
	deadline := time.Now().Add(execTestTimeout)
	for pid == "" {
		if b, _ := os.ReadFile(pidFile); len(bytes.TrimSpace(b)) > 0 {
			pid = strings.TrimSpace(string(b))
		} else if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("the hook never started; stderr %q", stderr.String())
		} else {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(execTestTimeout):
		_ = cmd.Process.Kill()
		t.Fatal("run --from did not end after SIGTERM")
	}
	if cmd.ProcessState.Sys().(syscall.WaitStatus).Signaled() {
		t.Errorf("run --from died of the signal instead of answering; stderr %q", stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted before the hooks decided") {
		t.Errorf("stderr %q does not say the hooks were interrupted", stderr.String())
	}
	execAssertGone(t, pid)
}

// buildBinary builds agenthooks into the test's temporary folder.
func buildBinary(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to build agenthooks with: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "agenthooks")
	if out, err := exec.Command(goCmd, "build", "-o", bin, "../../cmd/agenthooks-engine").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
