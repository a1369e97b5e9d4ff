package trust

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/agenthooks/agenthooks/internal/needs"
)

const rootsPerWriter = 10

// writerRoots are the roots writer id trusts; base keeps them apart from
// any real directory.
func writerRoots(base string, id int) []string {
	out := make([]string, rootsPerWriter)
	for i := range out {
		out[i] = filepath.Join(base, fmt.Sprintf("w%d-r%d", id, i))
	}
	return out
}

// trustAll trusts every root of writer id, one Trust call each, so that
// writers interleave between calls.
func trustAll(s *Store, base string, id int) error {
	for _, root := range writerRoots(base, id) {
		if err := s.Trust(root, map[string][]byte{".cursor/hooks.json": []byte(root)}); err != nil {
			return err
		}
	}
	return nil
}

// assertAllTrusted checks that a fresh Open sees every root of writers
// 0..n-1 with its pin: no writer's update was lost.
func assertAllTrusted(t *testing.T, dir, base string, n int) {
	t.Helper()
	s := mustOpen(t, dir)
	if got, want := len(s.Roots()), n*rootsPerWriter; got != want {
		t.Errorf("%d roots trusted, want %d", got, want)
	}
	for id := range n {
		for _, root := range writerRoots(base, id) {
			if ok, reason := s.Check(root, ".cursor/hooks.json", []byte(root)); !ok {
				t.Errorf("lost update: %s", reason)
			}
		}
	}
}

func TestConcurrentGoroutines(t *testing.T) {
	const writers = 6
	for _, shared := range []bool{true, false} {
		t.Run(fmt.Sprintf("shared store %v", shared), func(t *testing.T) {
			dir, base := t.TempDir(), t.TempDir()
			one := mustOpen(t, dir)
			var wg sync.WaitGroup
			for id := range writers {
				wg.Go(func() {
					s := one
					if !shared {
						var err error
						if s, err = Open(dir); err != nil {
							t.Error(err)
							return
						}
					}
					if err := trustAll(s, base, id); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			assertAllTrusted(t, dir, base, writers)
		})
	}
}

// TestConcurrentProcesses runs the test binary several times at once as
// writers (see TestHelperWriter) against one store.
func TestConcurrentProcesses(t *testing.T) {
	needs.Short(t, "the trust store's tests across processes")
	const writers = 4
	dir, base := t.TempDir(), t.TempDir()
	cmds := make([]*exec.Cmd, writers)
	for id := range writers {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
		cmd.Env = append(os.Environ(),
			"TRUST_HELPER_DIR="+dir, "TRUST_HELPER_BASE="+base, "TRUST_HELPER_ID="+strconv.Itoa(id))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[id] = cmd
	}
	for id, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer %d: %v", id, err)
		}
	}
	assertAllTrusted(t, dir, base, writers)
}

// TestHelperWriter is one writer process of TestConcurrentProcesses; run
// on its own it does nothing.
func TestHelperWriter(t *testing.T) {
	dir := os.Getenv("TRUST_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process for TestConcurrentProcesses")
	}
	id, err := strconv.Atoi(os.Getenv("TRUST_HELPER_ID"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := trustAll(s, os.Getenv("TRUST_HELPER_BASE"), id); err != nil {
		t.Fatal(err)
	}
}
