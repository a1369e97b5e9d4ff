//go:build unix

package proc

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// ForwardedSignals are the signals exec passes on to its command: the ones a
// user or a supervising agent sends to stop it.
var ForwardedSignals = []os.Signal{unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT}

// ForegroundShell runs a command line through /bin/sh, as Cursor's terminal
// tool and agents' $SHELL -c do.
func ForegroundShell(command string) []string {
	// "--": a command that starts with - or + is the script, not options
	// of sh's (sh -c -e 'x' would run x, unseen by whatever judged -e).
	return []string{"/bin/sh", "-c", "--", command}
}

// foregroundProcAttr gives the command a process group of its own when own is
// set.
func foregroundProcAttr(own bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: own}
}

// forwardSignal passes sig on. A command in a group of its own gets it as a
// group, as a terminal would deliver it. A command sharing our group
// shares our terminal too, and the terminal has already sent it the keys'
// SIGINT and SIGQUIT: only the others are passed on, so that nothing gets
// a ^C twice.
func forwardSignal(p *os.Process, sig os.Signal, own bool) {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return
	}
	if own {
		// ESRCH (the group is gone) is the expected failure.
		_ = unix.Kill(-p.Pid, s)
		return
	}
	if s != unix.SIGINT && s != unix.SIGQUIT {
		_ = p.Signal(s)
	}
}

// killForegroundGroup kills what is left of the command's process group. The
// group id stays reserved while any member lives, so this cannot reach an
// unrelated process.
func killForegroundGroup(p *os.Process) { _ = unix.Kill(-p.Pid, unix.SIGKILL) }

// foregroundStatus turns the command's wait status into exec's exit code, and
// the signal's name when one killed it.
func foregroundStatus(st *os.ProcessState) (code int, signal string) {
	if st == nil {
		return ExitNoStatus, ""
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), unix.SignalName(ws.Signal())
	}
	return st.ExitCode(), ""
}

// OpenTerminal opens the controlling terminal for the question.
func OpenTerminal() (*Terminal, error) {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	return &Terminal{in: f, out: f, closer: f.Close}, nil
}
