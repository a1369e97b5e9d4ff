package state

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/internal/needs"
)

// TestKilledWriter kills (SIGKILL on Unix) a process in the middle of its
// write loop: the database must pass integrity_check and hold every
// record the process saw committed.
func TestKilledWriter(t *testing.T) {
	needs.Short(t, "the state store's tests across processes")
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), roleEnv+"=killme", "STATE_TEST_DIR="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var committed []string
	lines := bufio.NewScanner(out)
	for len(committed) < 300 && lines.Scan() {
		committed = append(committed, strings.Fields(lines.Text())...)
	}
	// The child keeps writing while we kill it.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() { // what it committed before dying
		committed = append(committed, strings.Fields(lines.Text())...)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the writer exited by itself before it was killed")
	}
	if len(committed) < 300 {
		t.Fatalf("the writer committed only %d records", len(committed))
	}

	s := openTest(t, Options{Dir: dir})
	var check string
	if err := s.db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	recs, err := s.Records(context.Background(), Query{})
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]bool{}
	for _, e := range recs {
		stored[e.Command] = true
	}
	for _, c := range committed {
		if !stored[c] {
			t.Errorf("committed record %s lost", c)
		}
	}
	// Batches are atomic: a batch is in whole or not at all.
	if len(recs)%3 != 0 {
		t.Errorf("%d records: a batch of 3 was half written", len(recs))
	}
	// And the database takes writes again.
	if err := s.Write(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if err := increments(context.Background(), s, "after", 1); err != nil {
		t.Fatal(err)
	}
}
