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
	teamsync "github.com/agenthooks/agenthooks/team/sync"
	"github.com/agenthooks/agenthooks/team/sync/faketeam"
)

// TestSyncWatchProcess: a real `agenthooks sync --watch` process logs a
// line per round on its schedule, installs a change, and ends cleanly on
// SIGTERM.
func TestSyncWatchProcess(t *testing.T) {
	bin := binary(t)
	srv := syncServer(t)
	home := t.TempDir()
	cmd := exec.Command(bin, "sync", "--watch", "--interval", "150ms", "--accept", "--home", home)
	cmd.Env = append(os.Environ(), teamsync.TokenEnv+"="+syncToken, teamsync.ServerEnv+"="+srv.URL)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
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
