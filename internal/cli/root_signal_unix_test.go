//go:build unix

package cli_test

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	teamsync "github.com/agenthooks/agenthooks/team/sync"
)

// TestRootSignalsReachEveryVerb: the interrupt signals are caught once, at
// the root, for every verb: `sync --watch`, which once listened for SIGINT
// and SIGTERM only, ends cleanly on SIGHUP too instead of dying of it.
func TestRootSignalsReachEveryVerb(t *testing.T) {
	bin := binary(t)
	srv := syncServer(t)
	cmd := exec.Command(bin, "sync", "--watch", "--interval", "1h", "--accept", "--home", t.TempDir())
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
	first := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			first <- sc.Text()
		}
		for sc.Scan() {
		}
		close(first)
	}()
	select {
	case l := <-first:
		if !strings.Contains(l, "changed to revision") {
			t.Fatalf("first round: %q; stderr:\n%s", l, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("no round logged within 20s; stderr:\n%s", stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	for range first {
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGHUP: %v; stderr:\n%s", err, stderr.String())
	}
}
