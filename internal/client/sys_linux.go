package client

import "syscall"

// childAttr makes the kernel stop the step's process if this one dies
// first: it never outlives its caller. TERM, not KILL, so that it stops
// its hooks' process groups on the way out.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
