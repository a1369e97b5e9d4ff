package agenttest

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/agenthooks/agenthooks/internal/filelock"
	"github.com/agenthooks/agenthooks/internal/resident"
)

// StopEngines stops every resident engine whose socket is under tmp (the
// TMPDIR the tests ran with) and waits, a few seconds at most, for each to
// be gone: no engine a test started outlives the tests.
func StopEngines(tmp string) {
	socks, _ := filepath.Glob(filepath.Join(tmp, "agenthooks-*", "engine-*.sock"))
	for _, s := range socks {
		_, _ = resident.Control(context.Background(), s, resident.ControlStop)
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, s := range socks {
		for time.Now().Before(deadline) {
			if _, err := os.Stat(s + ".lock"); err != nil {
				break
			}
			if f, err := os.OpenFile(s+".lock", os.O_RDWR, 0); err == nil {
				free := tryLock(f)
				f.Close()
				if free {
					break
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// tryLock reports whether the engine's lock is free: the engine is gone.
func tryLock(f *os.File) bool {
	ok, err := filelock.TryLock(f)
	return err == nil && ok
}
