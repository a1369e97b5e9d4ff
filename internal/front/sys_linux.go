package front

import "syscall"

// childAttr makes the kernel kill the step's process if this one dies
// first: it never outlives its caller.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
