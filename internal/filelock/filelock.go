// Package filelock takes exclusive advisory locks on open files: flock on
// Unix, LockFileEx on Windows. The locks belong to the open file, so two
// opens in one process exclude each other as two processes do, and a lock
// dies with its process. On systems with neither (AIX, Plan 9, wasm) the
// functions do nothing: every lock is granted at once.
package filelock

import "os"

// Held reports whether someone holds the lock of the file at path: a
// process that took it and lives. A missing file is not held.
func Held(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	free, err := TryLock(f)
	return err == nil && !free
}
