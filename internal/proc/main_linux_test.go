package proc

import (
	"os"
	"syscall"
	"testing"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from linux/prctl.h.
const prSetChildSubreaper = 36

// TestMain makes the test binary a child subreaper: grandchildren orphaned
// by a hook's leader are re-parented to it rather than to PID 1, so the tests
// can reap them and see kill(pid, 0) fail with ESRCH. In a container whose
// init never reaps, a killed orphan would otherwise stay a zombie, which
// kill(pid, 0) still finds.
func TestMain(m *testing.M) {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		os.Stderr.WriteString("prctl(PR_SET_CHILD_SUBREAPER): " + errno.Error() + "\n")
	}
	os.Exit(m.Run())
}
