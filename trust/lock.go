package trust

import (
	"os"

	"github.com/agenthooks/agenthooks/internal/filelock"
)

// lock takes an exclusive file lock on path (created if missing) and
// returns the function that releases it. The lock belongs to the open
// file, so two Stores in one process exclude each other as two processes
// do. Where the system has no file locks (AIX, Plan 9, wasm) two
// processes trusting at the same instant may lose one of the two changes;
// each process's own writes are still atomic.
func lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := filelock.Lock(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = filelock.Unlock(f) // closing would release it too
		f.Close()
	}, nil
}
