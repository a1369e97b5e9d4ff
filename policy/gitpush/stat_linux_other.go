//go:build linux && !amd64 && !arm64

package gitpush

import "syscall"

// stat is syscall.Stat (fstatat's number and buffer differ among these
// architectures).
func stat(path string, st *syscall.Stat_t) bool {
	return syscall.Stat(path, st) == nil
}
