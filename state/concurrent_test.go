package state

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"

	"github.com/agenthooks/agenthooks/internal/needs"
)

const (
	writers       = 20
	perWriter     = 15
	wantIncrement = writers * perWriter
)

// checkNothingLost asserts that every writer's every increment and record
// is in the database at dir.
func checkNothingLost(t *testing.T, dir string) {
	t.Helper()
	s := openTest(t, Options{Dir: dir})
	sess, err := s.Get(context.Background(), "shared")
	if err != nil {
		t.Fatal(err)
	}
	if got := sess.LoopCounts["stop"]; got != wantIncrement {
		t.Errorf("loop count %d after %d increments: %d updates lost", got, wantIncrement, wantIncrement-got)
	}
	recs, err := s.Records(context.Background(), Query{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range recs {
		if seen[e.Command] {
			t.Errorf("record %s stored twice", e.Command)
		}
		seen[e.Command] = true
	}
	for w := range writers {
		for i := range perWriter {
			if cmd := fmt.Sprintf("w%d-%d", w, i); !seen[cmd] {
				t.Errorf("record %s lost", cmd)
			}
		}
	}
	if len(recs) != wantIncrement {
		t.Errorf("%d records, want %d", len(recs), wantIncrement)
	}
}

func TestConcurrentGoroutines(t *testing.T) {
	for _, shared := range []bool{true, false} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			dir := t.TempDir()
			one := openTest(t, Options{Dir: dir})
			var wg sync.WaitGroup
			for w := range writers {
				wg.Go(func() {
					s := one
					if !shared {
						// A Store of its own: its own connections, so only
						// SQLite's locking keeps the writers apart.
						s = openTest(t, Options{Dir: dir})
					}
					if err := increments(context.Background(), s, fmt.Sprintf("w%d", w), perWriter); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			checkNothingLost(t, dir)
		})
	}
}

// TestConcurrentProcesses runs 20 processes at once against one new
// database: they race to create and migrate it, then to update one session
// and append records.
func TestConcurrentProcesses(t *testing.T) {
	needs.Short(t, "the state store's tests across processes")
	dir := t.TempDir()
	cmds := make([]*exec.Cmd, writers)
	for w := range writers {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), roleEnv+"=worker", "STATE_TEST_DIR="+dir,
			"STATE_TEST_ID=w"+strconv.Itoa(w), "STATE_TEST_N="+strconv.Itoa(perWriter))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[w] = cmd
	}
	for w, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer %d: %v", w, err)
		}
	}
	checkNothingLost(t, dir)
}
