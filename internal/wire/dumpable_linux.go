package wire

import "syscall"

// Undumpable makes this process not dumpable: its /proc files (environ,
// mem, maps) belong to root, and no process of the user's that lacks
// CAP_SYS_PTRACE may read them or attach to it. A hook, which runs as the
// user, thus cannot read the secrets of the process that started it.
// It lasts until this process execs another program.
func Undumpable() {
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_DUMPABLE, 0, 0)
}
