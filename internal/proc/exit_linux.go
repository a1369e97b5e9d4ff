package proc

import (
	"os"

	"golang.org/x/sys/unix"
)

// awaitExit returns once p has exited, having waited in the runtime's
// poller on a pidfd rather than in a blocking wait. A thread blocked in
// waitid for the whole of a hook's run has its processor handed off, and
// keeps the runtime's monitor waking every 20 µs to do it; parked in the
// poller, the engine is idle until the hook ends. Where no pidfd can be
// had (a kernel before 5.3, a seccomp filter) it returns at once, and the
// Wait that follows blocks as before.
func awaitExit(p *os.Process) {
	fd, err := unix.PidfdOpen(p.Pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	// A pidfd is readable once its process has exited. Any doubt (an
	// error) ends the wait here: the blocking Wait then decides.
	_ = rc.Read(func(fd uintptr) bool {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		return err != nil || n != 0
	})
}
