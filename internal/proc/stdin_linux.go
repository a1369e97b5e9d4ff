package proc

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeSize is a pipe's default capacity on Linux.
const pipeSize = 64 << 10

// growPipe enlarges the pipe that w writes to when a payload would not fit
// its default capacity, up to the most an unprivileged process may ask for
// (1 MiB): the hook then takes a payload of megabytes in a few wake-ups of
// the engine, not one per 64 KiB. A refusal leaves the pipe as it was.
//
// (A sealed memory file as the hook's stdin, read at the speed of memory,
// was measured too: filling fresh pages for it cost more than the pipe.)
func growPipe(w *os.File, payload int) {
	if payload <= pipeSize {
		return
	}
	if rc, err := w.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { _, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, min(payload, 1<<20)) })
	}
}
