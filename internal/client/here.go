package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync/atomic"
	"time"
)

// runHere runs the step in a process of the full binary, with the payload
// already read as its stdin, and passes its exit code on. Signals reach it
// as they reach this process; it does not outlive this process.
func runHere(bin string, args []string, stdin []byte, stdout, stderr io.Writer) int {
	cmd := exec.Command(bin, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	out := &counter{w: stdout}
	crash := &crashWatch{w: stderr}
	cmd.Stdout, cmd.Stderr = out, crash
	// Its output is copied through pipes now: a descendant that kept them
	// open must not keep the answer from the agent.
	cmd.WaitDelay = time.Second
	env, secrets := engineEnv(fullEnv(), false)
	cmd.Env = env
	if secrets != nil {
		cmd.ExtraFiles = []*os.File{secrets}
		defer secrets.Close()
	}
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
	case errors.As(err, &ee) && ee.ExitCode() == goCrashCode && out.n == 0 && crash.seen:
		// The Go runtime's own exit (a panic, a stack overflow, out of
		// memory): no answer was given, and exit 2 alone is no block for
		// every agent (Copilot reads it as a warning).
		return refuse(args, blockedMsg, stdout, stderr)
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

// goCrashCode is the exit code of a Go program the runtime ended.
const goCrashCode = 2

// counter counts what passes through to w.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// crashWatch passes stderr on and notes the Go runtime's report of a
// crash: a line that starts "panic: ", "fatal error: " or
// "runtime: goroutine stack exceeds".
type crashWatch struct {
	w    io.Writer
	seen bool
	line []byte // the start of the current line, up to 40 bytes
}

func (c *crashWatch) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' {
			c.line = c.line[:0]
			continue
		}
		if len(c.line) < 40 {
			c.line = append(c.line, b)
			if l := string(c.line); l == "panic: " || l == "fatal error: " || l == "runtime: goroutine stack exceeds" {
				c.seen = true
			}
		}
	}
	return c.w.Write(p)
}
