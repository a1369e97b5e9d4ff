//go:build !(unix && !aix) && !windows

package filelock

import "os"

// Lock does nothing: this system has no file locks.
func Lock(*os.File) error { return nil }

// TryLock does nothing and reports success: this system has no file locks.
func TryLock(*os.File) (bool, error) { return true, nil }

// Unlock does nothing: this system has no file locks.
func Unlock(*os.File) error { return nil }
