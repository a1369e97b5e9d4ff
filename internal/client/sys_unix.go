//go:build unix

package client

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// interruptSignals stop a step: the agent's interrupt, TERM and HUP.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// handOver replaces this process with the full binary: the verb keeps the
// process id, the terminal, stdin and every signal.
func handOver(bin string, args []string) int {
	env, secrets := engineEnv(fullEnv(), true)
	err := syscall.Exec(bin, append([]string{bin}, args...), env)
	if secrets != nil {
		secrets.Close()
	}
	fmt.Fprintf(os.Stderr, "agenthooks: run %s: %v\n", bin, err)
	return 127
}

// start launches the user's engine in a session of its own, detached
// from the agent's terminal and process group, and does not wait: this
// step runs here; the next ones use the engine. Of several clients that
// start one at once, the engine's own lock keeps one.
func start(bin, sock string, env []string) {
	cmd := exec.Command(bin, "engine", "serve", "--socket", sock)
	env, secrets := engineEnv(env, false)
	cmd.Env = env
	if secrets != nil {
		cmd.ExtraFiles = []*os.File{secrets}
		defer secrets.Close()
	}
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	// What the engine says about itself goes to a log beside its socket,
	// started afresh when it has grown past a megabyte.
	if fi, err := os.Stat(sock + ".log"); err == nil && fi.Size() > 1<<20 {
		_ = os.Remove(sock + ".log")
	}
	// Never through a link: whoever could plant one would have the
	// engine's log written wherever it points.
	if f, err := os.OpenFile(sock+".log", os.O_CREATE|os.O_APPEND|os.O_WRONLY|syscall.O_NOFOLLOW, 0o600); err == nil {
		defer f.Close()
		cmd.Stderr = f
	}
	if err := cmd.Start(); err != nil {
		debugf("start the engine: %v", err)
		return
	}
	_ = cmd.Process.Release()
}
