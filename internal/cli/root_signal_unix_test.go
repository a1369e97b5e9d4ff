//go:build unix

package cli_test

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRootSignalsReachEveryVerb: the interrupt signals are caught once, at
// the root, for every verb: `sync --watch`, which once listened for SIGINT
// and SIGTERM only, ends cleanly on SIGHUP too instead of dying of it.
func TestRootSignalsReachEveryVerb(t *testing.T) {
	srv := syncServer(t)
	cmd, lines, stderr := startSyncWatch(t, srv.URL, t.TempDir(), "1h")
	select {
	case l := <-lines:
		if !strings.Contains(l, "changed to revision") {
			t.Fatalf("first round: %q; stderr:\n%s", l, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("no round logged within 20s; stderr:\n%s", stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	for range lines {
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGHUP: %v; stderr:\n%s", err, stderr.String())
	}
}
