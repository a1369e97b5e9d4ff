//go:build linux || darwin

package sandbox

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

var forwarded = []os.Signal{unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT}

// passOn gives the child the signals the terminal does not: it shares our
// process group, so ^C and ^\ reach it without us.
func passOn(p *os.Process, s os.Signal) {
	if s == unix.SIGINT || s == unix.SIGQUIT {
		return
	}
	_ = p.Signal(s)
}

// endLike ends this process as the child ended: the same exit code, or
// the same signal, so the caller sees the command's own status.
func endLike(st *os.ProcessState) int {
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig := ws.Signal()
		signal.Reset(sig)
		_ = unix.Kill(os.Getpid(), sig)
		return 128 + int(sig)
	}
	return st.ExitCode()
}
