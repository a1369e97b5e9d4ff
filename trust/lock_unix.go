//go:build unix && !aix

package trust

import (
	"os"

	"golang.org/x/sys/unix"
)

// lock takes an exclusive flock on path (created if missing) and returns
// the function that releases it. flock locks belong to the open file, so
// two Stores in one process exclude each other as two processes do.
func lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = unix.Flock(int(f.Fd()), unix.LOCK_UN) // closing would release it too
		f.Close()
	}, nil
}
