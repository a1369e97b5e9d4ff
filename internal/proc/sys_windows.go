//go:build windows

package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/windows"
)

// shellArgv is the argv that runs command through PowerShell, without the
// user's profile (slow, and not part of the hook) and without prompts.
func shellArgv(command string) []string {
	return []string{powershellPath(), "-NoProfile", "-NonInteractive", "-Command", command}
}

func powershellPath() string {
	if root := os.Getenv("SystemRoot"); root != "" {
		p := filepath.Join(root, "System32", "WindowsPowerShell", "v1.0", "powershell.exe")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("powershell.exe"); err == nil {
		return p
	}
	return "powershell.exe"
}

// sysProcAttr gives the child a console process group of its own, the
// target of terminate's CTRL_BREAK_EVENT.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// group holds the hook's process tree in a Job object, which (unlike
// taskkill /T) still reaches descendants after the leader has exited. The
// job is assigned right after start; PowerShell takes far longer to start
// than that, so no descendant escapes in between. Without a job (creation
// refused), kill falls back to taskkill /T /F.
type group struct {
	proc *os.Process
	job  windows.Handle
}

func newGroup(p *os.Process) *group {
	g := &group{proc: p}
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return g
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.Pid))
	if err != nil {
		_ = windows.CloseHandle(job)
		return g
	}
	defer func() { _ = windows.CloseHandle(h) }()
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		_ = windows.CloseHandle(job)
		return g
	}
	g.job = job
	return g
}

// terminate asks the group to stop; console programs see CTRL_BREAK. It
// fails harmlessly when we share no console with the child.
func (g *group) terminate() {
	_ = windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(g.proc.Pid))
}

// kill ends the whole tree at once.
func (g *group) kill() {
	if g.job != 0 {
		_ = windows.TerminateJobObject(g.job, 1)
	} else {
		_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(g.proc.Pid)).Run()
	}
	_ = g.proc.Kill()
}

// release closes the job handle. The job has no kill-on-close limit, so
// background jobs left running after a normal exit survive it.
// empty is always true on Windows: the Job object's kill ends the tree
// at once, so there is no grace to wait out.
func (g *group) empty() bool { return true }

func (g *group) release() {
	if g.job != 0 {
		_ = windows.CloseHandle(g.job)
		g.job = 0
	}
}

// exitStatus reports the exit code, or -1 and what we sent when we stopped
// the process: Windows has no signals, and the code of a killed process is
// the one TerminateJobObject chose.
func exitStatus(st *os.ProcessState, sent string) (code int, signal string) {
	if st == nil {
		return -1, ""
	}
	if sent != "" {
		return -1, sent
	}
	return st.ExitCode(), ""
}

// closePipe closes our end of a pipe. Pipes are synchronous handles on
// Windows and Close waits for a pending read or write, so cancel it first.
func closePipe(f *os.File) {
	_ = windows.CancelIoEx(windows.Handle(f.Fd()), nil)
	_ = f.Close()
}
