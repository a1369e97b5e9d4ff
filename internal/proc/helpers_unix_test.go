//go:build unix

package proc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeFile writes content to dir/name (creating parent folders) with mode.
func writeFile(t *testing.T, dir, name, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// run runs s with a generous safety timeout on the context, so a broken
// Run fails the test instead of hanging it, and reports the wall time.
func run(t *testing.T, s Spec) (Result, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	began := time.Now()
	res := Run(ctx, s)
	return res, time.Since(began)
}

// readPid waits for a script to have written a pid to path.
func readPid(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if s := strings.TrimSpace(string(b)); err == nil && s != "" {
			pid, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("pid file %s: %v", path, err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("pid file %s never written", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// gone reports whether pid no longer exists within the given time: kill(pid,
// 0) fails with ESRCH. A zombie re-parented to the test binary (a subreaper
// on Linux) is reaped first, since it is dead but still found by kill.
func gone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive reports whether pid is running (exists and is not a zombie we could
// reap).
func alive(pid int) bool {
	var ws syscall.WaitStatus
	if wpid, _ := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); wpid == pid {
		return false
	}
	return syscall.Kill(pid, 0) == nil
}

// killLater makes sure pid is gone at the end of the test.
func killLater(t *testing.T, pid int) {
	t.Cleanup(func() {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		gone(pid, 5*time.Second)
	})
}

// physical is dir with symlinks resolved, as getcwd reports it.
func physical(t *testing.T, dir string) string {
	t.Helper()
	p, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// openFDs counts this process's open descriptors, or -1 where /proc is absent.
func openFDs() int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(entries)
}
