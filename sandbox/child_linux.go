package sandbox

import "syscall"

// childAttr kills the sandboxed child if the supervisor dies first: the
// command must not run on without the process that serves its proxy.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// sandboxName is CURSOR_SANDBOX's value inside the sandbox, as Cursor
// sets it on Linux.
const sandboxName = "native"
