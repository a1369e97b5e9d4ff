//go:build windows

package client

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/windows"
)

var interruptSignals = []os.Signal{os.Interrupt}

// handOver runs the full binary with this process's streams and passes
// its exit code on: Windows has no exec.
func handOver(bin string, args []string) int {
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = fullEnv()
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		fmt.Fprintf(os.Stderr, "agenthooks: run %s: %v\n", bin, err)
		return 127
	}
	return 0
}

// start launches the user's engine detached from the agent's console
// (no window, a process group of its own, out of the agent's job when the
// job allows it), and does not wait: this step runs here; the next ones
// use the engine. Of several clients that start one at once, the engine's
// own lock keeps one.
func start(bin, sock string, env []string) {
	const detached = windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_NO_WINDOW
	cmd := startCmd(bin, sock, env, detached|windows.CREATE_BREAKAWAY_FROM_JOB)
	err := cmd.Start()
	closeLog(cmd)
	if err != nil {
		// A job that may not be left: the engine stays in it (and ends
		// with it, as it ends when idle).
		cmd = startCmd(bin, sock, env, detached)
		err = cmd.Start()
		closeLog(cmd)
	}
	if err != nil {
		debugf("start the engine: %v", err)
		return
	}
	_ = cmd.Process.Release()
}

// startCmd is the engine's command line, with its log beside the socket
// path (started afresh when it has grown past a megabyte).
func startCmd(bin, sock string, env []string, flags uint32) *exec.Cmd {
	cmd := exec.Command(bin, "engine", "serve", "--socket", sock)
	cmd.Env = env
	// Not the agent's folder: a process's working folder cannot be
	// removed while it runs.
	cmd.Dir = filepath.VolumeName(sock) + `\`
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: flags, HideWindow: true}
	if fi, err := os.Stat(sock + ".log"); err == nil && fi.Size() > 1<<20 {
		_ = os.Remove(sock + ".log")
	}
	if f, err := os.OpenFile(sock+".log", os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
		cmd.Stderr = f
	}
	return cmd
}

// closeLog closes this process's copy of the engine's log.
func closeLog(cmd *exec.Cmd) {
	if f, ok := cmd.Stderr.(*os.File); ok {
		f.Close()
	}
}
