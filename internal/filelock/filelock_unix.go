//go:build unix && !aix

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// Lock waits until it holds f's exclusive lock.
func Lock(f *os.File) error {
	return flock(f, unix.LOCK_EX)
}

// TryLock takes f's exclusive lock if no one holds it, and reports
// whether it did.
func TryLock(f *os.File) (bool, error) {
	err := flock(f, unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// Unlock releases f's lock (closing f would release it too).
func Unlock(f *os.File) error {
	return flock(f, unix.LOCK_UN)
}

// flock is unix.Flock, retried when a signal interrupts it.
func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if err != unix.EINTR {
			return err
		}
	}
}
