//go:build windows

package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// ForwardedSignals: Windows has only the console's Ctrl-C, which the console
// delivers to the command itself. exec catches it so as not to die and
// leave the command running without it.
var ForwardedSignals = []os.Signal{os.Interrupt}

// ForegroundShell runs a command line through PowerShell, the shell of
// Cursor's terminal on Windows, without the user's profile.
func ForegroundShell(command string) []string {
	return []string{interactivePowerShell(), "-NoProfile", "-Command", command}
}

func interactivePowerShell() string {
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

// foregroundProcAttr keeps the command in our console process group, where
// Ctrl-C reaches it.
func foregroundProcAttr(bool) *syscall.SysProcAttr { return nil }

// forwardSignal does nothing: the console has already delivered Ctrl-C.
func forwardSignal(*os.Process, os.Signal, bool) {}

// killForegroundGroup ends the command; Windows has no process groups to kill.
func killForegroundGroup(p *os.Process) { _ = p.Kill() }

// foregroundStatus returns the command's exit code; Windows has no signals.
func foregroundStatus(st *os.ProcessState) (code int, signal string) {
	if st == nil {
		return ExitNoStatus, ""
	}
	return st.ExitCode(), ""
}

// OpenTerminal opens the console for the question.
func OpenTerminal() (*Terminal, error) {
	in, err := os.OpenFile("CONIN$", os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	out, err := os.OpenFile("CONOUT$", os.O_RDWR, 0)
	if err != nil {
		_ = in.Close()
		return nil, err
	}
	return &Terminal{in: in, out: out, closer: func() error {
		_ = in.Close()
		return out.Close()
	}}, nil
}

// runPTY: no pseudo-console relay on Windows; a console stdout is
// handed to the command directly, without capture.
func runPTY(Foreground, foregroundIO, <-chan os.Signal) (ForegroundResult, bool) {
	return ForegroundResult{}, false
}
