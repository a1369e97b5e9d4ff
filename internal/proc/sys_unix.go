//go:build unix

package proc

import (
	"errors"
	"os"
	"syscall"
)

// shellArgv is the argv that runs command through the platform shell. argv[0]
// is "/bin/sh", as Node's spawn with shell:true (Cursor) passes it, so sh's
// own error messages read the same.
func shellArgv(command string) []string {
	return []string{"/bin/sh", "-c", "--", command} // "--": see ForegroundShell
}

// sysProcAttr puts the child in a process group of its own, so that a
// signal to the group reaches every descendant that did not leave it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// group is the process group led by the hook's process. Its id stays
// reserved while any member lives, even after the leader was reaped, so
// signalling it later cannot hit an unrelated process.
type group struct{ pgid int }

func newGroup(p *os.Process) *group { return &group{pgid: p.Pid} }

// terminate asks every member to stop (SIGTERM).
func (g *group) terminate() { g.signal(syscall.SIGTERM) }

// kill stops every member at once (SIGKILL).
func (g *group) kill() { g.signal(syscall.SIGKILL) }

// empty reports whether no member of the group is left (a member that
// died but was not reaped yet still counts).
func (g *group) empty() bool {
	return errors.Is(syscall.Kill(-g.pgid, 0), syscall.ESRCH)
}

// release frees what the group holds; nothing on unix.
func (g *group) release() {}

func (g *group) signal(sig syscall.Signal) {
	// ESRCH (the group is already empty) is the expected failure.
	_ = syscall.Kill(-g.pgid, sig)
}

// exitStatus turns the leader's wait status into an exit code and a signal
// name. sent is what we last sent to the group; unix does not need it since
// the wait status says which signal it was.
func exitStatus(st *os.ProcessState, sent string) (code int, signal string) {
	if st == nil {
		return -1, ""
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, ws.Signal().String()
	}
	return st.ExitCode(), ""
}

// closePipe closes our end of a pipe. os.Pipe's ends are in the runtime
// poller on unix, so Close wakes a Read or Write blocked on it.
func closePipe(f *os.File) { _ = f.Close() }
