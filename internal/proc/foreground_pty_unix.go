//go:build unix

package proc

import (
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// runPTY runs the command on a pseudo-terminal of its own, the way
// script(1) does, when our stdout is a terminal. Handing it our terminal
// directly would keep it interactive but leave the after-hooks without
// its output; pipes would capture it but make every program see "not a
// terminal" (no colours, no progress bars, full buffering, editors that
// refuse to start). The pseudo-terminal gives both: the command sees a
// terminal set up and sized like ours, and exec relays and captures what
// it shows, with stdout and stderr interleaved exactly as on screen
// (which is also what Cursor's hooks get: the output of a terminal).
//
// When stdin is our terminal too, and we are in its foreground, it is put
// in raw mode and what is typed is relayed, so keys such as ^C and ^Z
// reach the command through its own terminal and exec sees no signal from
// them. When stderr is not a terminal it stays a separate, captured pipe.
// ok is false when no pseudo-terminal can be had; the caller then hands
// our terminal over.
func runPTY(s Foreground, std foregroundIO, sigs <-chan os.Signal) (res ForegroundResult, ok bool) {
	out := std.out.(*os.File) // runForeground checked that it is a terminal
	outFd := int(out.Fd())
	master, tty, err := pty.Open()
	if err != nil {
		return ForegroundResult{}, false
	}
	master = pollable(master)
	defer master.Close()
	defer tty.Close()
	if st, err := term.GetState(outFd); err == nil {
		_ = term.Restore(int(tty.Fd()), st)
	}
	copySize(outFd, tty)

	capture := newHeadTail(CaptureLimit)
	cmd := foregroundCommand(s)
	cmd.Stdout = tty
	inFd := -1
	if IsTerminal(std.in) && inForeground(int(std.in.(*os.File).Fd())) {
		cmd.Stdin = tty
		inFd = int(std.in.(*os.File).Fd())
	} else {
		cmd.Stdin = std.in
	}
	if IsTerminal(std.err) {
		cmd.Stderr = tty
	} else {
		cmd.Stderr = io.MultiWriter(capture, std.err)
	}
	// Ctty is the child's fd of the terminal: its stdout.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1}

	relayed := make(chan struct{})
	go func() {
		defer close(relayed)
		// Reading the master ends with EIO once every holder of the
		// terminal has closed it: that is its end of file.
		_, _ = io.Copy(&relay{c: capture, w: out}, master)
	}()
	stopSize := followSize(outFd, master)
	var stopInput func()
	if inFd >= 0 {
		if old, err := term.MakeRaw(inFd); err == nil {
			defer func() { _ = term.Restore(inFd, old) }()
		}
		stopInput = relayInput(inFd, master)
	}

	res = waitForeground(cmd, true, sigs, func() { _ = tty.Close() })
	_ = tty.Close() // also when the start failed: the master then reads EOF
	if res.StartErr == "" {
		// The command has exited; what it started may still hold the
		// terminal. Give it the grace, then end the whole session's group
		// and stop reading.
		if !waitFor(relayed, foregroundGrace) {
			killForegroundGroup(cmd.Process)
			if !waitFor(relayed, foregroundGrace) {
				_ = master.Close()
				waitFor(relayed, foregroundGrace)
			}
		}
	}
	_ = master.Close()
	waitFor(relayed, foregroundGrace)
	if stopInput != nil {
		stopInput()
	}
	stopSize()
	res.Output = capture.String()
	return res, true
}

// inForeground reports whether we are in the foreground of terminal fd.
// Only then may exec take its keyboard (raw mode, relayed input): in the
// background, changing its mode would stop us with SIGTTOU, so the command
// gets our stdin as it is, as a plain background job would.
func inForeground(fd int) bool {
	pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}

// waitFor waits for ch to close, at most d.
func waitFor(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}

// pollable returns the pseudo-terminal master in the runtime's poller,
// where closing it wakes a blocked read: pty.Open leaves it blocking. Only
// on Linux, whose epoll handles terminals; kqueue on the BSDs and macOS is
// not trusted with them, and there a read still blocked at the end is
// bounded by foregroundGrace rather than woken.
func pollable(f *os.File) *os.File {
	if runtime.GOOS != "linux" {
		return f
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	nfd := -1
	_ = rc.Control(func(fd uintptr) {
		nfd, err = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0)
	})
	if err != nil || nfd < 0 {
		return f
	}
	if err := unix.SetNonblock(nfd, true); err != nil {
		_ = unix.Close(nfd)
		return f
	}
	_ = f.Close()
	return os.NewFile(uintptr(nfd), "/dev/ptmx")
}

// copySize gives the command's terminal the size of ours.
func copySize(from int, to *os.File) {
	ws, err := unix.IoctlGetWinsize(from, unix.TIOCGWINSZ)
	if err != nil {
		return
	}
	rc, err := to.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) { _ = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, ws) })
}

// followSize resizes the command's terminal whenever ours is resized,
// until stop is called.
func followSize(from int, to *os.File) (stop func()) {
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, unix.SIGWINCH)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-winch:
				copySize(from, to)
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(winch)
		close(done)
		<-finished
	}
}

// relayInput copies what is typed on our terminal (fd in) to the
// command's until stop is called. It waits in select(2) on the terminal and
// on a pipe of its own, so stop can wake it without touching the
// terminal's file flags, which the shell we were started from shares.
// (poll(2) would do, but macOS's poll does not support terminals.)
func relayInput(in int, to *os.File) (stop func()) {
	var wake [2]int
	if err := unix.Pipe(wake[:]); err != nil {
		return func() {}
	}
	unix.CloseOnExec(wake[0])
	unix.CloseOnExec(wake[1])
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		buf := make([]byte, 4096)
		for {
			var rd unix.FdSet
			rd.Set(in)
			rd.Set(wake[0])
			if _, err := unix.Select(max(in, wake[0])+1, &rd, nil, nil, nil); err != nil {
				if err == unix.EINTR {
					continue
				}
				return
			}
			if rd.IsSet(wake[0]) {
				return
			}
			n, err := unix.Read(in, buf)
			if n > 0 {
				if _, werr := to.Write(buf[:n]); werr != nil {
					return
				}
			}
			if n == 0 || (err != nil && err != unix.EINTR && err != unix.EAGAIN) {
				return // our terminal hung up
			}
		}
	}()
	return func() {
		_, _ = unix.Write(wake[1], []byte{0})
		// Close the pipe only once the relay is done with it: a number
		// closed under a select could be reused by the next open.
		if waitFor(finished, foregroundGrace) {
			_ = unix.Close(wake[0])
			_ = unix.Close(wake[1])
		}
	}
}
