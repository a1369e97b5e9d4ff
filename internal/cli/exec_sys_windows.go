//go:build windows

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// execForwarded: Windows has only the console's Ctrl-C, which the console
// delivers to the command itself. exec catches it so as not to die and
// leave the command running without it.
var execForwarded = []os.Signal{os.Interrupt}

// execShellArgv runs a command line through PowerShell, the shell of
// Cursor's terminal on Windows, without the user's profile.
func execShellArgv(command string) []string {
	return []string{execPowerShell(), "-NoProfile", "-Command", command}
}

func execPowerShell() string {
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

// execProcAttr keeps the command in our console process group, where
// Ctrl-C reaches it.
func execProcAttr(bool) *syscall.SysProcAttr { return nil }

// execSignal does nothing: the console has already delivered Ctrl-C.
func execSignal(*os.Process, os.Signal, bool) {}

// execKillGroup ends the command; Windows has no process groups to kill.
func execKillGroup(p *os.Process) { _ = p.Kill() }

// execStatus returns the command's exit code; Windows has no signals.
func execStatus(st *os.ProcessState) (code int, signal string) {
	if st == nil {
		return ExitExecFailed, ""
	}
	return st.ExitCode(), ""
}

// execOpenTerminal opens the console for the question.
func execOpenTerminal() (*execTerminal, error) {
	in, err := os.OpenFile("CONIN$", os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	out, err := os.OpenFile("CONOUT$", os.O_RDWR, 0)
	if err != nil {
		_ = in.Close()
		return nil, err
	}
	return &execTerminal{in: in, out: out, close: func() error {
		_ = in.Close()
		return out.Close()
	}}, nil
}

// execRunPTY: no pseudo-console relay on Windows; a console stdout is
// handed to the command directly, without capture.
func execRunPTY(execSpec, execStdio, <-chan os.Signal) (execResult, bool) {
	return execResult{}, false
}
