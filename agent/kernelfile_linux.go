package agent

import (
	"os"

	"golang.org/x/sys/unix"
)

// kernelFile reports whether f is one of the kernel's own (procfs, sysfs,
// debugfs, …): they call themselves regular files, and a read of some
// (/proc/kmsg) waits for what the kernel has yet to say.
func kernelFile(f *os.File) bool {
	var st unix.Statfs_t
	if unix.Fstatfs(int(f.Fd()), &st) != nil {
		return false
	}
	switch st.Type {
	case unix.PROC_SUPER_MAGIC, unix.SYSFS_MAGIC, unix.DEBUGFS_MAGIC, unix.TRACEFS_MAGIC, unix.SECURITYFS_MAGIC, unix.CGROUP_SUPER_MAGIC, unix.CGROUP2_SUPER_MAGIC:
		return true
	}
	return false
}
