package resident

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// HostHandler runs one client's verb on the engine's host: the request's
// arguments, its stdin (body, and req.StdinErr), its stdout and stderr;
// it returns the exit code. ctx ends when the client hangs up.
type HostHandler func(ctx context.Context, h *host.Host, req *wire.Request, body []byte, stdout, stderr io.Writer) int

// Engine is the resident engine's life around its host: it opens the
// host (and, while the state store will not open, refuses steps and tries
// again), serves clients on srv, writes the execution log after the
// answers, and closes the host when the server ends.
type Engine struct {
	// Handle runs a served verb on the host.
	Handle HostHandler
	// Logger receives what the engine says about itself; nil discards.
	Logger *slog.Logger

	host atomic.Pointer[host.Host] // set once, when it opens
	why  atomic.Pointer[string]    // why no step runs yet; nil once host is set
	kick chan struct{}
	// flushing is held while the log is written, so that a flush asked
	// for (ControlFlush) returns only once the records taken by one
	// already under way are written too.
	flushing sync.Mutex
}

// Serve runs srv until it is idle, stopped or replaced, with its Waiting,
// Handle and After set to the engine's, then writes what is left of the
// log and closes the host. Another engine already serving the socket is
// no error.
func (e *Engine) Serve(ctx context.Context, srv *Server) error {
	if e.Logger == nil {
		e.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	e.kick = make(chan struct{}, 1)
	// The server's end ends the opener and the flusher.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	opened := make(chan struct{})
	if e.tryOpen(ctx) {
		close(opened)
	} else {
		go func() {
			defer close(opened)
			e.keepOpening(ctx)
		}()
	}
	flushed := make(chan struct{})
	go func() {
		defer close(flushed)
		e.flushLoop(ctx)
	}()
	srv.Waiting, srv.After, srv.Flush = e.waiting, e.flushSoon, func() { e.flush(context.WithoutCancel(ctx)) }
	srv.Handle = func(ctx context.Context, req *wire.Request, body []byte, out, errOut io.Writer) int {
		return e.Handle(ctx, e.host.Load(), req, body, out, errOut)
	}
	// The host closes (the log written, the state store closed) before the
	// server lets go of its lock, or, when it never took it, here.
	srv.Closing = sync.OnceFunc(func() {
		stop()
		<-opened
		<-flushed
		if h := e.host.Load(); h != nil {
			_ = h.Close(context.Background())
		}
	})
	err := srv.Serve(ctx)
	srv.Closing()
	if errors.Is(err, ErrRunning) {
		return nil
	}
	return err
}

// How often an engine whose state store will not open tries again: soon
// at first (the step that started it may be holding the store), then
// seldom (a full disk, a state folder that is a file).
const (
	openRetryFirst = 100 * time.Millisecond
	openRetryMax   = 5 * time.Second
)

// tryOpen opens the engine's host, and reports whether it did. An engine
// does not run degraded: until its state store opens it runs no step, and
// each runs in a process of its own, which tries the store itself. It
// listens meanwhile, and says why it refuses, so that clients do not start
// engine after engine.
func (e *Engine) tryOpen(ctx context.Context) bool {
	var warns []string
	h := host.Open(ctx, host.Options{Warn: func(msg string) { warns = append(warns, msg) }})
	if h.StateOK() {
		for _, w := range warns {
			e.Logger.Warn(w)
		}
		e.host.Store(h)
		e.why.Store(nil)
		return true
	}
	_ = h.Close(ctx)
	why := "the engine waits for its state store: " + strings.Join(warns, "; ")
	if prev := e.why.Load(); prev == nil || *prev != why {
		e.Logger.Warn(why)
	}
	e.why.Store(&why)
	return false
}

// keepOpening tries to open the host, less and less often, until it opens
// or ctx ends.
func (e *Engine) keepOpening(ctx context.Context) {
	for delay := openRetryFirst; ; delay = min(2*delay, openRetryMax) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
		if e.tryOpen(ctx) {
			e.Logger.Info("the state store opened: the engine runs steps")
			return
		}
	}
}

// waiting is why the engine runs no step yet, or "".
func (e *Engine) waiting() string {
	if why := e.why.Load(); why != nil {
		return *why
	}
	return ""
}

// flushSoon asks for the log to be written, after an answer is out.
func (e *Engine) flushSoon() {
	select {
	case e.kick <- struct{}{}:
	default:
	}
}

// flushDelay gathers the records of steps that come close together into
// one write: the write (a transaction, a sync to disk) is the costliest
// thing a step leaves behind, and steps come in bursts.
const flushDelay = 25 * time.Millisecond

// flushLoop writes the log after the answers, until ctx ends (Serve then
// writes what is left).
func (e *Engine) flushLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-e.kick:
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(flushDelay):
		}
		e.flush(context.WithoutCancel(ctx))
	}
}

// flush writes the log of every step answered so far.
func (e *Engine) flush(ctx context.Context) {
	e.flushing.Lock()
	defer e.flushing.Unlock()
	if h := e.host.Load(); h != nil {
		h.Flush(ctx)
	}
}
