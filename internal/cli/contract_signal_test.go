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
