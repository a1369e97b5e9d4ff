//go:build windows

package trust

import (
	"os"

	"golang.org/x/sys/windows"
)

// lock takes an exclusive LockFileEx lock on path (created if missing)
// and returns the function that releases it.
func lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	h := windows.Handle(f.Fd())
	ol := new(windows.Overlapped)
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = windows.UnlockFileEx(h, 0, 1, 0, ol) // closing would release it too
		f.Close()
	}, nil
}
