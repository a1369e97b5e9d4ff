//go:build !windows

package atomicfile

import "os"

// rename replaces newpath with oldpath atomically (rename(2)).
func rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }
