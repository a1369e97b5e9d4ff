package front

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync/atomic"
)

// runHere runs the step in a process of the full binary, with the payload
// already read as its stdin, and passes its exit code on. Signals reach it
// as they reach this process; it does not outlive this process.
func runHere(bin string, args []string, stdin []byte, stdout, stderr io.Writer) int {
	cmd := exec.Command(bin, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Env = fullEnv()
	cmd.SysProcAttr = childAttr()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, interruptSignals...)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "agenthooks: start %s: %v\n", bin, err)
		return refuse(args, blockedMsg, stdout, stderr)
	}
	done := make(chan struct{})
	var interrupted atomic.Bool
	go func() {
		for {
			select {
			case s := <-sigs:
				interrupted.Store(true)
				_ = cmd.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	case errors.As(err, &ee) && interrupted.Load():
		// The agent interrupted the step: it did not decide.
		return 130
	}
	// Killed by a signal nobody here sent (the kernel's OOM killer, a
	// crash), or lost: no answer was given, so none may be assumed.
	fmt.Fprintf(stderr, "agenthooks: %s: %v\n", bin, err)
	return refuse(args, blockedMsg, stdout, stderr)
}
