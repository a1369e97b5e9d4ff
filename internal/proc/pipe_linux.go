package proc

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeSize is a pipe's default capacity on Linux.
const pipeSize = 64 << 10

// GrowPipe enlarges the pipe f reads from or writes to when size bytes
// would not fit its default capacity: to size, up to the most an
// unprivileged process may ask for (1 MiB). A payload of megabytes then
// crosses it in a few wake-ups of its reader, not one per 64 KiB. A
// refusal (not a pipe, or the user's pipes already hold their share of
// memory) leaves it as it was.
func GrowPipe(f *os.File, size int) {
	if size <= pipeSize {
		return
	}
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { _, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, min(size, 1<<20)) })
	}
}
