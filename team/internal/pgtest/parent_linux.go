package pgtest

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill the server if the test binary dies
// without stopping it (a panic, a timeout, a kill), so no PostgreSQL
// outlives its tests (its directory, in the temporary folder, stays
// behind then).
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
