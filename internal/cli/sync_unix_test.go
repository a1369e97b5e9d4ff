//go:build unix

package cli_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamsync/faketeam"
)

// TestSyncWatchProcess: a real `agenthooks sync --watch` process logs a
// line per round on its schedule, installs a change, and ends cleanly on
// SIGTERM.
func TestSyncWatchProcess(t *testing.T) {
	srv := syncServer(t)
	home := t.TempDir()
	cmd, lines, stderr := startSyncWatch(t, srv.URL, home, "150ms")
	next := func() string {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the watch ended early; stderr:\n%s", stderr.String())
			}
			return l
		case <-time.After(20 * time.Second):
			t.Fatal("no round logged within 20s")
		}
		return ""
	}
	first := next()
	if !strings.Contains(first, "changed to revision 2") {
		t.Fatalf("first round: %q", first)
	}
	if _, err := time.Parse(time.RFC3339, strings.Fields(first)[0]); err != nil {
		t.Fatalf("a round's line starts with its time: %q", first)
	}
	if l := next(); !strings.Contains(l, "unchanged at revision 2") {
		t.Fatalf("second round: %q", l)
	}
	srv.SetHooks(faketeam.Hook(1, "beforeShellExecution", "guard.sh", "#!/bin/sh\necho v2\n"))
	for l := next(); !strings.Contains(l, "changed to revision 3"); l = next() {
	}
	data, _ := os.ReadFile(filepath.Join(config.TeamHooksDir(home, "3"), "guard.sh"))
	if !strings.Contains(string(data), "v2") {
		t.Fatalf("guard.sh %q", data)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for range lines {
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v; stderr:\n%s", err, stderr.String())
	}
}

// startSyncWatch starts a real `agenthooks sync --watch` process against
// server, installing into home, and returns it with its stdout lines
// (closed at EOF) and its stderr. The process is killed when the test
// ends.
func startSyncWatch(t *testing.T, server, home, interval string) (*exec.Cmd, <-chan string, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(binary(t), "sync", "--watch", "--interval", interval, "--accept", "--home", home)
	cmd.Env = append(os.Environ(), teamsync.TokenEnv+"="+syncToken, teamsync.ServerEnv+"="+server)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	return cmd, lines, stderr
}
