//go:build unix

package cli_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestContractTermStopsTheBinary: `agenthooks contract` stopped by
// SIGTERM (the agent or the engine giving up on the hook) stops the
// binary's whole process group, a background grandchild included, and
// fails as a hook (exit 1) instead of dying and leaving them running.
func TestContractTermStopsTheBinary(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "grandchild.pid")
	guard := filepath.Join(dir, "guard.sh")
	script := "#!/bin/sh\nsleep 60 &\necho $! > " + pidFile + "\nwait\n"
	if err := os.WriteFile(guard, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "contract", guard)
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"beforeShellExecution","command":"ls","cwd":"/"}`)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	var pid int
	for deadline := time.Now().Add(20 * time.Second); pid == 0; {
		if b, _ := os.ReadFile(pidFile); len(bytes.TrimSpace(b)) > 0 {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		} else if time.Now().After(deadline) {
			t.Fatalf("the binary never started its child; stderr %q", stderr.String())
		} else {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("contract did not end after SIGTERM")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("contract ended with %v, want exit 1; stderr %q", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "stopped: agenthooks was interrupted") {
		t.Errorf("stderr %q does not say the binary was stopped", stderr.String())
	}
	for deadline := time.Now().Add(20 * time.Second); syscall.Kill(pid, 0) == nil; {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d outlived contract", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestContractUnderTheEngineLeavesNothing: a contract hook whose binary
// ignores SIGTERM, run by the engine with a timeout, is gone after the run:
// contract stops the binary's group before the engine's SIGKILL ends
// contract itself.
func TestContractUnderTheEngineLeavesNothing(t *testing.T) {
	bin := binary(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	pidFile := filepath.Join(root, "guard.pid")
	guard := filepath.Join(root, "guard.sh")
	if err := os.WriteFile(guard, []byte("#!/bin/sh\ntrap '' TERM\necho $$ > "+pidFile+"\nsleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	hooks := `{"version": 1, "hooks": {"beforeShellExecution": [{"command": "'` + bin + `' contract '` + guard + `'", "timeout": 1}]}}`
	if err := os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "beforeShellExecution")
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(root, "xdg"),
		"AGENTHOOKS_STATE_DIR="+filepath.Join(root, "state"),
		"AGENTHOOKS_CONFIG_DIR="+filepath.Join(root, "config"),
		"AGENTHOOKS_ENTERPRISE_CONFIG="+filepath.Join(root, "etc", "hooks.json"),
		"GORACE=atexit_sleep_ms=0",
	)
	cmd.Stdin = strings.NewReader(`{"command":"ls","cwd":"` + root + `"}`)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the guard never ran: %v\n%s", err, out)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(pid, 0) == nil; {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the guard %d outlived the run\n%s", pid, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
