package proc

import (
	"context"
	"os"
	"sync"
	"time"
)

// Run runs s.Command to completion and reports what happened. It never
// panics and never returns before every goroutine it started has finished.
// It returns within Timeout + 2×Grace and a little more: Timeout, then TERM
// to the group, Grace, KILL, and at most Grace more waiting for the output
// to reach EOF before our ends of the pipes are closed.
func Run(ctx context.Context, s Spec) (res Result) {
	began := time.Now()
	defer func() { res.Duration = time.Since(began) }()
	res.ExitCode = -1
	s = s.withDefaults()
	if ctx.Err() != nil {
		res.Canceled = true
		return res
	}
	dir, err := workDir(s.Dir)
	if err != nil {
		res.StartErr = err
		return res
	}
	env := s.Env
	if env == nil {
		env = os.Environ()
	}
	c, err := start(s.Command, dir, env)
	if err != nil {
		res.StartErr = err
		return res
	}
	res.Direct = c.direct
	supervise(ctx, s, c, &res)
	return res
}

// waited is the outcome of waiting for the leader.
type waited struct {
	state *os.ProcessState
	err   error
}

// supervise feeds stdin, collects output and enforces the limits until the
// leader has exited and the output is closed, then joins its goroutines.
func supervise(ctx context.Context, s Spec, c *child, res *Result) {
	var all sync.WaitGroup
	defer all.Wait()
	defer c.group.release()

	out := &capture{name: "stdout", limit: s.StdoutCap}
	errOut := &capture{name: "stderr", limit: s.StderrCap}
	overflow := make(chan string, 2) // at most one send per capture
	readersDone := make(chan struct{})
	var readers sync.WaitGroup
	readers.Go(func() { out.drain(c.stdout, overflow) })
	readers.Go(func() { errOut.drain(c.stderr, overflow) })
	all.Go(func() { readers.Wait(); close(readersDone) })
	all.Go(func() { feed(c.stdin, s.Stdin) })
	exited := make(chan waited, 1)
	all.Go(func() {
		st, err := c.proc.Wait()
		exited <- waited{st, err}
	})

	v := &stopper{group: c.group, grace: s.Grace}
	defer v.close()
	w := v.awaitLeader(ctx, s.Timeout, exited, overflow, res)
	res.ExitCode, res.Signal = exitStatus(w.state, v.sent)
	v.awaitOutput(ctx, readersDone, overflow, res, func() {
		closePipe(c.stdout)
		closePipe(c.stderr)
	})
	if v.stopping {
		// Timeout, cancellation or overflow: nothing of the hook survives.
		c.group.kill()
	}
	// Unblock a write nobody will read (a descendant holds stdin open).
	closePipe(c.stdin)
	<-readersDone
	closePipe(c.stdout)
	closePipe(c.stderr)
	res.Stdout, res.Stderr = out.buf, errOut.buf
}

// stopper escalates from TERM to KILL on the process group.
type stopper struct {
	group    *group
	grace    time.Duration
	sent     string // the last signal sent: "", "terminated" or "killed"
	stopping bool   // the group is to be ended: timeout, cancellation, overflow
	timer    *time.Timer
	killAt   <-chan time.Time // fires Grace after TERM; nil when no KILL is due
}

// terminate sends TERM to the group once and schedules KILL after Grace.
func (v *stopper) terminate() {
	if v.stopping {
		return
	}
	v.stopping = true
	v.group.terminate()
	v.sent = "terminated"
	v.timer = time.NewTimer(v.grace)
	v.killAt = v.timer.C
}

// kill sends KILL to the group at once.
func (v *stopper) kill() {
	v.stopping = true
	v.group.kill()
	v.sent = "killed"
	v.killAt = nil
}

func (v *stopper) close() {
	if v.timer != nil {
		v.timer.Stop()
	}
}

// awaitLeader waits for the leader to exit, stopping the group on timeout,
// cancellation or an output cap. The leader always exits: KILL follows TERM
// after Grace at the latest.
func (v *stopper) awaitLeader(ctx context.Context, timeout time.Duration, exited <-chan waited, overflow <-chan string, res *Result) waited {
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	done := ctx.Done()
	for {
		select {
		case w := <-exited:
			return w
		case <-deadline:
			deadline = nil
			res.TimedOut = true
			v.terminate()
		case <-done:
			done = nil
			res.Canceled = true
			v.terminate()
		case name := <-overflow:
			if res.Overflow == "" {
				res.Overflow = name
			}
			v.kill()
		case <-v.killAt:
			v.kill()
		}
	}
}

// awaitOutput waits for stdout and stderr to reach EOF after the leader
// exited. A descendant that still holds them after Grace (or when ctx ends)
// is killed with the group and cut off by closing our ends.
func (v *stopper) awaitOutput(ctx context.Context, readersDone <-chan struct{}, overflow <-chan string, res *Result, cut func()) {
	t := time.NewTimer(v.grace)
	defer t.Stop()
	done := ctx.Done()
	for {
		select {
		case <-readersDone:
			return
		case <-t.C:
			v.kill()
			cut()
			return
		case <-done:
			res.Canceled = true
			v.kill()
			cut()
			return
		case name := <-overflow:
			if res.Overflow == "" {
				res.Overflow = name
			}
			v.kill()
		case <-v.killAt:
			v.kill()
		}
	}
}
