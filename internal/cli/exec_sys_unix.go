//go:build unix

package cli

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// execForwarded are the signals exec passes on to its command: the ones a
// user or a supervising agent sends to stop it.
var execForwarded = []os.Signal{unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT}

// execShellArgv runs a command line through /bin/sh, as Cursor's terminal
// tool and agents' $SHELL -c do.
func execShellArgv(command string) []string {
	return []string{"/bin/sh", "-c", command}
}

// execProcAttr gives the command a process group of its own when own is
// set.
func execProcAttr(own bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: own}
}

// execSignal passes sig on. A command in a group of its own gets it as a
// group, as a terminal would deliver it. A command sharing our group
// shares our terminal too, and the terminal has already sent it the keys'
// SIGINT and SIGQUIT: only the others are passed on, so that nothing gets
// a ^C twice.
func execSignal(p *os.Process, sig os.Signal, own bool) {
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

// execKillGroup kills what is left of the command's process group. The
// group id stays reserved while any member lives, so this cannot reach an
// unrelated process.
func execKillGroup(p *os.Process) { _ = unix.Kill(-p.Pid, unix.SIGKILL) }

// execStatus turns the command's wait status into exec's exit code, and
// the signal's name when one killed it.
func execStatus(st *os.ProcessState) (code int, signal string) {
	if st == nil {
		return ExitExecFailed, ""
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), unix.SignalName(ws.Signal())
	}
	return st.ExitCode(), ""
}

// execOpenTerminal opens the controlling terminal for the question.
func execOpenTerminal() (*execTerminal, error) {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	return &execTerminal{in: f, out: f, close: f.Close}, nil
}
