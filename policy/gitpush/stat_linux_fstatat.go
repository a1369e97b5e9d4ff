//go:build linux && (amd64 || arm64)

package gitpush

import (
	"syscall"
	"unsafe"
)

// stat is syscall.Stat with the path in a buffer on the stack rather
// than allocated (a long path goes through syscall.Stat).
func stat(path string, st *syscall.Stat_t) bool {
	var buf [512]byte
	if len(path) >= len(buf) {
		return syscall.Stat(path, st) == nil
	}
	p, ok := cPath(&buf, path)
	if !ok {
		return false
	}
	fd := atFDCWD
	_, _, errno := syscall.Syscall6(sysFstatat, uintptr(fd), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(st)), 0, 0, 0)
	return errno == 0
}
