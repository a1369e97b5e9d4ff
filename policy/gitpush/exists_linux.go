package gitpush

import (
	"errors"
	"io/fs"
	"syscall"
	"unsafe"
)

// dirMayExist reports whether dir may exist: false only when it surely
// does not. faccessat(2) answers with the path in a buffer on the stack,
// without the allocations of os.Stat or syscall.Access, which matter on
// every decision for a repeated line; a long path goes through
// syscall.Access.
func dirMayExist(dir string) bool {
	var buf [512]byte
	if len(dir) >= len(buf) {
		return !errors.Is(syscall.Access(dir, 0), fs.ErrNotExist) // 0: F_OK
	}
	p, ok := cPath(&buf, dir)
	if !ok {
		return true // no such path can be looked up; git fails there
	}
	fd := atFDCWD
	_, _, errno := syscall.Syscall(syscall.SYS_FACCESSAT, uintptr(fd), uintptr(unsafe.Pointer(p)), 0)
	return errno != syscall.ENOENT
}

// atFDCWD is AT_FDCWD: a relative path starts at the working directory.
const atFDCWD = -0x64

// cPath copies path into buf, NUL-terminated, for a system call; ok is
// false when it holds a NUL itself. The caller checks it fits.
func cPath(buf *[512]byte, path string) (*byte, bool) {
	for i := 0; i < len(path); i++ {
		if path[i] == 0 {
			return nil, false
		}
	}
	copy(buf[:], path)
	buf[len(path)] = 0
	return &buf[0], true
}
