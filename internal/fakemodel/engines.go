package fakemodel

import (
	"context"
	"path/filepath"
	"time"

	"github.com/agenthooks/agenthooks/internal/filelock"
	"github.com/agenthooks/agenthooks/internal/resident"
)

// StopEngines stops every resident engine whose socket is in dir (the
// engine folder of the home the tests ran with, wire.Dir) and waits, ten seconds at most, for each to
// be gone: no engine a test started outlives the tests. An engine counts
// as gone when its lock is free; one that took a lock after the last stop
// (a second start waiting its turn) is stopped in the next round.
func StopEngines(dir string) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		socks, _ := filepath.Glob(filepath.Join(dir, "engine-*.sock"))
		for _, s := range socks {
			_, _ = resident.Control(context.Background(), s, resident.ControlStop)
		}
		locks, _ := filepath.Glob(filepath.Join(dir, "engine-*.sock.lock"))
		if !anyHeld(locks) || time.Now().After(deadline) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// anyHeld reports whether an engine holds one of the locks.
func anyHeld(locks []string) bool {
	for _, l := range locks {
		if filelock.Held(l) {
			return true
		}
	}
	return false
}
