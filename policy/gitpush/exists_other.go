//go:build !windows && !linux

package gitpush

import (
	"errors"
	"io/fs"
	"syscall"
)

// dirMayExist reports whether dir may exist: false only when it surely
// does not. access(2) answers without the allocations of os.Stat, which
// matter on every decision for a repeated line.
func dirMayExist(dir string) bool {
	return !errors.Is(syscall.Access(dir, 0), fs.ErrNotExist) // 0: F_OK
}
