package proc

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Run runs s.Command to completion and reports what happened. It never
// panics and never returns before every goroutine it started has finished.
// It returns within Timeout + 2×Grace and a little more: Timeout, then TERM
// to the group, Grace, KILL, and at most Grace more waiting for the output
// to reach EOF before our ends of the pipes are closed. On Linux a torn-down
// hook whose output is still held adds a bounded scan of /proc for the
// holders (see killWriters).
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
	c, err := start(s.Command, s.Argv, dir, env)
	if err != nil {
		res.StartErr = err
		return res
	}
	res.Direct = c.direct
	supervise(ctx, s, c, &res)
	return res
}

// supervise feeds stdin, collects output and enforces the limits until the
// leader has exited and the output is closed, then joins its goroutines.
//
// The calling goroutine waits for the leader itself, as os/exec does (on
// Linux first in the runtime's poller, on a pidfd: see awaitExit):
// every hand-off between goroutines costs tens of microseconds on a busy
// machine, and a hook's spawn is the engine's hot path. Timeout,
// cancellation and output caps act from timer, context and reader
// callbacks through the stopper, which needs no goroutine of ours awake.
func supervise(ctx context.Context, s Spec, c *child, res *Result) {
	v := &stopper{group: c.group, grace: s.Grace, cutoff: make(chan struct{})}
	out := &capture{name: "stdout", limit: s.StdoutCap}
	errOut := &capture{name: "stderr", limit: s.StderrCap}

	// The last reader to reach EOF closes readersDone; no goroutine waits
	// on the readers' behalf.
	readersDone := make(chan struct{})
	var left atomic.Int32
	left.Store(2)
	var readers, feeder sync.WaitGroup
	for _, r := range []struct {
		c *capture
		f *os.File
	}{{out, c.stdout}, {errOut, c.stderr}} {
		readers.Go(func() {
			r.c.drain(r.f, v.overflow)
			if left.Add(-1) == 0 {
				close(readersDone)
			}
		})
	}
	GrowPipe(c.stdin, len(s.Stdin))
	feeder.Go(func() { feed(c.stdin, s.Stdin) })

	if s.Timeout > 0 {
		// Under mu: a tiny timeout may fire, and register KILL, before
		// after() returns.
		v.mu.Lock()
		v.after(s.Timeout, func() { v.timedOut = true; v.terminate() })
		v.mu.Unlock()
	}
	v.onCancel(ctx, func() { v.canceled = true; v.terminate() })

	awaitExit(c.proc)
	st, _ := c.proc.Wait()
	v.graceAfterTerm(c.group)

	// The leader is gone; give the output Grace to reach EOF. A descendant
	// that still holds it then is killed with the group and cut off.
	select {
	case <-readersDone:
	default:
		t := time.NewTimer(s.Grace)
		select {
		case <-readersDone:
		case <-t.C:
			v.lockedKill()
		case <-v.cutoff:
		}
		t.Stop()
	}
	v.close()
	if v.stopping {
		// Timeout, cancellation, overflow, or output held past Grace:
		// nothing of the hook survives, and nothing that holds its output
		// either, even outside its group (a reader stopped by overflow
		// says nothing about who still holds that pipe).
		c.group.kill()
		if v.overflowed != "" || !closed(readersDone) {
			killWriters(c.stdout, c.stderr)
		}
	}
	closePipe(c.stdout)
	closePipe(c.stderr)
	// Unblock a write nobody will read (a descendant holds stdin open).
	closePipe(c.stdin)
	readers.Wait()
	feeder.Wait()
	c.group.release()

	res.ExitCode, res.Signal = exitStatus(st, v.sent)
	res.TimedOut, res.Canceled, res.Overflow = v.timedOut, v.canceled, v.overflowed
	res.Stdout, res.Stderr = out.buf, errOut.buf
}

// closed reports whether ch is closed, without waiting.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// stopper escalates from TERM to KILL on the process group. Its methods
// run from timer, context and reader callbacks, so they hold mu; close
// waits for every callback, so none outlives Run.
type stopper struct {
	mu     sync.Mutex
	group  *group
	grace  time.Duration
	cutoff chan struct{} // closed when the output is no longer waited for

	sent       string // the last signal sent: "", "terminated" or "killed"
	stopping   bool   // the group is to be ended: timeout, cancellation, overflow
	timedOut   bool
	canceled   bool
	overflowed string
	closed     bool
	pending    sync.WaitGroup
	stops      []func() bool
}

// after runs f under mu after d, unless the stopper was closed first.
// Called with mu held or before any callback can run.
func (v *stopper) after(d time.Duration, f func()) {
	v.pending.Add(1)
	t := time.AfterFunc(d, func() {
		defer v.pending.Done()
		v.mu.Lock()
		defer v.mu.Unlock()
		if !v.closed {
			f()
		}
	})
	v.stops = append(v.stops, t.Stop)
}

// onCancel runs f under mu when ctx ends, unless the stopper was closed.
func (v *stopper) onCancel(ctx context.Context, f func()) {
	v.pending.Add(1)
	stop := context.AfterFunc(ctx, func() {
		defer v.pending.Done()
		v.mu.Lock()
		defer v.mu.Unlock()
		if !v.closed {
			f()
		}
	})
	v.mu.Lock()
	v.stops = append(v.stops, stop)
	v.mu.Unlock()
}

// close stops every pending callback and waits for those already running.
func (v *stopper) close() {
	v.mu.Lock()
	v.closed = true
	stops := v.stops
	v.mu.Unlock()
	for _, stop := range stops {
		if stop() {
			v.pending.Done() // it will never run
		}
	}
	v.pending.Wait()
}

// terminate sends TERM to the group once and schedules KILL after Grace.
// Called with mu held.
func (v *stopper) terminate() {
	if v.stopping {
		return
	}
	v.stopping = true
	v.group.terminate()
	v.sent = "terminated"
	v.cut()
	v.after(v.grace, v.kill)
}

// kill sends KILL to the group at once. Called with mu held.
func (v *stopper) kill() {
	v.stopping = true
	v.group.kill()
	v.sent = "killed"
	v.cut()
}

func (v *stopper) lockedKill() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.kill()
}

// cut tells the supervisor not to wait for the output. Called with mu held.
func (v *stopper) cut() {
	select {
	case <-v.cutoff:
	default:
		close(v.cutoff)
	}
}

// overflow is called by a capture past its cap: the group is killed at once.
func (v *stopper) overflow(name string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.overflowed == "" {
		v.overflowed = name
	}
	v.kill()
}

// graceAfterTerm gives what is left of a terminated group its Grace to
// clean up before the KILL: the leader dying of TERM does not mean its
// children have finished their own handlers.
func (v *stopper) graceAfterTerm(g *group) {
	v.mu.Lock()
	terminated := v.sent == "terminated"
	v.mu.Unlock()
	if !terminated {
		return
	}
	deadline := time.Now().Add(v.grace)
	for time.Now().Before(deadline) && !g.empty() {
		time.Sleep(10 * time.Millisecond)
	}
}
