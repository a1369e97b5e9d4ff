// Package resident is the user's resident engine: one process that keeps
// the hooks, trust, sessions, the log and compiled policies loaded, and
// runs steps for the agenthooks client over a unix socket in a folder only
// the user can enter, or on Windows a named pipe only the user may open.
// It serves only the user's own processes (the kernel's peer credentials;
// on Windows the client process's user SID), exits after an idle time,
// and makes way for a new engine when the client's binary differs from
// its own.
package resident

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agenthooks/agenthooks/internal/filelock"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// DefaultIdle is how long an engine waits for a request before it exits.
const DefaultIdle = 15 * time.Minute

// lockWait is how long a new engine waits for the one it replaces to
// finish its requests and let go of the socket.
const lockWait = 10 * time.Second

// ErrRunning means another engine already serves the socket.
var ErrRunning = errors.New("an engine already serves this socket")

// Handler runs one verb: the request's arguments, its stdin (body, the
// bytes the client read, and req.StdinErr when its read failed part way),
// its stdout and stderr; it returns the exit code. ctx ends when the
// client hangs up.
type Handler func(ctx context.Context, req *wire.Request, body []byte, stdout, stderr io.Writer) int

// Server is one engine.
type Server struct {
	// Socket is the socket's path; its folder must exist and be the
	// user's alone (wire.Dir). On Windows it names the pipe
	// (wire.PipeName), and its folder holds the lock.
	Socket string
	// Build is the identity of this engine's binary (wire.Identity).
	Build string
	// Version is reported by status.
	Version string
	// Idle is how long the engine waits for a request before it exits;
	// zero means DefaultIdle.
	Idle time.Duration
	// Serves says whether a request is one the engine runs; others are
	// refused and the client runs them itself.
	Serves func(req *wire.Request) bool
	// Waiting, when set and it gives a reason, has the engine refuse
	// every step with that reason: the engine is up, so clients find it
	// and start no other, but it cannot run steps yet (its state store
	// will not open), so each runs in its client's process. Status
	// reports the reason.
	Waiting func() string
	// Handle runs a served verb.
	Handle Handler
	// After, when set, runs after each reply is written: work that must
	// not hold up an answer (the execution log).
	After func()
	// Flush, when set, writes at once what After would write later: a
	// ControlFlush request (agenthooks log) waits for it, so that every
	// step answered before it is in the log.
	Flush func()
	// Closing, when set, runs once the last request is done and before
	// the lock is released: whatever waits on the lock (the next engine,
	// engine stop) then finds the engine's files written and closed.
	Closing func()
	// Logf, when set, receives what the engine has to say about itself.
	Logf func(format string, a ...any)

	started time.Time
	addr    string // where it listens: the socket, or the pipe's name
	steps   atomic.Int64
	active  atomic.Int64
	last    atomic.Int64 // unix nanoseconds of the last request's end
	stop    chan struct{}
	once    sync.Once
}

// Serve listens on the socket and serves until ctx ends, the engine has
// been idle for Idle, a client asks it to stop, or a client from another
// binary arrives. Requests under way are finished first.
func (s *Server) Serve(ctx context.Context) error {
	if s.Idle <= 0 {
		s.Idle = DefaultIdle
	}
	s.stop = make(chan struct{})
	lock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	defer lock.Close()
	if s.Closing != nil {
		defer s.Closing() // before the lock's release: defers run last first
	}
	ln, addr, err := listen(s.Socket)
	if err != nil {
		return err
	}
	s.addr = addr
	s.started = time.Now()
	s.last.Store(s.started.UnixNano())

	var wg sync.WaitGroup
	go func() {
		s.waitForEnd(ctx)
		ln.Close()
	}()
	for {
		c, err := ln.Accept()
		if err != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.serveConn(ctx, c)
		}()
	}
	wg.Wait()
	s.logf("engine stopped after %s, %d steps served", time.Since(s.started).Round(time.Second), s.steps.Load())
	return nil
}

// lock takes the socket's lock file, waiting a while for an engine that
// is making way. An engine of this binary that answers on the socket is
// not making way: this one is a second start, and leaves at once.
func (s *Server) lock(ctx context.Context) (*os.File, error) {
	f, err := os.OpenFile(wire.LockFile(s.Socket), os.O_CREATE|os.O_RDWR|noFollow, 0o600)
	if err != nil {
		return nil, fmt.Errorf("engine lock: %w", err)
	}
	deadline := time.Now().Add(lockWait)
	for {
		ok, err := filelock.TryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("engine lock: %w", err)
		}
		if ok {
			return f, nil
		}
		if time.Now().After(deadline) || s.runningHere(ctx) {
			f.Close()
			return nil, ErrRunning
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// runningHere reports whether an engine of this binary serves the socket.
func (s *Server) runningHere(ctx context.Context) bool {
	st, err := control1(ctx, s.Socket, ControlStatus)
	return err == nil && st.Build == s.Build
}

// waitForEnd returns when the engine should stop taking requests.
func (s *Server) waitForEnd(ctx context.Context) {
	t := time.NewTicker(min(s.Idle/4, time.Second))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			s.logf("engine stopping: %v", context.Cause(ctx))
			return
		case <-s.stop:
			return
		case <-t.C:
			if s.active.Load() == 0 && time.Since(time.Unix(0, s.last.Load())) >= s.Idle {
				s.logf("engine idle for %s: exiting", s.Idle)
				return
			}
		}
	}
}

// Stop makes the engine stop taking requests.
func (s *Server) Stop() { s.once.Do(func() { close(s.stop) }) }

// waiting is why the engine cannot run steps yet, or "".
func (s *Server) waiting() string {
	if s.Waiting == nil {
		return ""
	}
	return s.Waiting()
}

func (s *Server) logf(format string, a ...any) {
	if s.Logf != nil {
		s.Logf(format, a...)
	}
}

// serveConn answers one connection.
func (s *Server) serveConn(ctx context.Context, c net.Conn) {
	defer c.Close()
	if err := checkPeer(c); err != nil {
		s.logf("refused a connection: %v", err)
		if errors.Is(err, wire.ErrConfinedPeer) {
			// The user's, from inside a sandbox: its client runs the
			// step itself, inside. Control requests (stop) are refused
			// the same way.
			_ = wire.WriteAck(c, wire.Ack{Refused: "the caller runs inside a sandbox; its steps run there"})
		}
		// Not the user's process: say nothing at all.
		return
	}
	c.SetDeadline(time.Now().Add(30 * time.Second))
	var req wire.Request
	if err := wire.ReadRequest(c, &req); err != nil {
		s.logf("dropped a request: %v", err)
		return
	}
	body, err := wire.ReadBody(c, wire.MaxBody)
	if err != nil {
		s.logf("dropped a request: %v", err)
		return
	}
	c.SetDeadline(time.Time{})
	switch {
	case req.Control != "" && req.Protocol == wire.Protocol:
		// Status and stop answer whatever binary asks: an old engine
		// is seen, and can be stopped.
		s.control(c, &req)
		return
	case req.Protocol != wire.Protocol:
		_ = wire.WriteAck(c, wire.Ack{Refused: fmt.Sprintf("protocol %d, the engine speaks %d", req.Protocol, wire.Protocol), Replace: true})
		s.Stop()
		return
	case req.Build != s.Build:
		_ = wire.WriteAck(c, wire.Ack{Refused: "the engine was started from another binary", Replace: true})
		s.logf("a client of another binary (%s): making way", req.Build)
		s.Stop()
		return
	case s.Serves == nil || !s.Serves(&req):
		_ = wire.WriteAck(c, wire.Ack{Refused: "not a verb the engine runs"})
		return
	}
	if why := s.waiting(); why != "" {
		_ = wire.WriteAck(c, wire.Ack{Refused: why})
		return
	}
	select {
	case <-s.stop:
		_ = wire.WriteAck(c, wire.Ack{Refused: "the engine is stopping"})
		return
	default:
	}
	s.active.Add(1)
	defer func() {
		s.last.Store(time.Now().UnixNano())
		s.active.Add(-1)
	}()
	s.run(ctx, c, &req, body)
}

// hangupAfter is how long a verb runs before the engine watches its
// client's connection for a hang-up. Most steps are answered sooner, and
// a watcher costs a goroutine and a wake-up; a client that goes sooner
// has its step cancelled that much later.
const hangupAfter = 20 * time.Millisecond

// run runs a verb, with heartbeats while it runs, and writes the reply.
// The client hanging up cancels the verb.
//
// The acknowledgement goes out with the first heartbeat or with the
// reply, whichever comes first, and the reply in one write: a step
// answered within a heartbeat wakes its client once, not four times.
// The heartbeats and the hang-up watch are timers, so a step answered
// sooner starts no goroutine of its own.
func (s *Server) run(ctx context.Context, c net.Conn, req *wire.Request, body []byte) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	watch := time.AfterFunc(hangupAfter, func() {
		// The client sends nothing more: a read returns only when it
		// hangs up (or when the connection is closed after the reply).
		var b [1]byte
		_, _ = c.Read(b[:])
		cancel()
	})
	defer watch.Stop()
	var wmu sync.Mutex
	acked, finished := false, false // under wmu
	var beat *time.Timer            // under wmu
	wmu.Lock()
	beat = time.AfterFunc(wire.HeartbeatEvery, func() {
		wmu.Lock()
		defer wmu.Unlock()
		if finished {
			return
		}
		if !acked {
			acked = true
			_ = wire.WriteAck(c, wire.Ack{})
		}
		_ = wire.WriteHeartbeat(c)
		beat.Reset(wire.HeartbeatEvery)
	})
	wmu.Unlock()
	var out, errOut bytes.Buffer
	code, ok := s.safeHandle(ctx, req, body, &out, &errOut)
	wmu.Lock()
	defer wmu.Unlock()
	finished = true
	beat.Stop()
	s.steps.Add(1)
	if !ok {
		// No reply: the client runs the step itself.
		return
	}
	var reply bytes.Buffer
	reply.Grow(64 + out.Len() + errOut.Len())
	if !acked {
		_ = wire.WriteAck(&reply, wire.Ack{})
	}
	if wire.WriteReply(&reply, wire.Reply{Code: code}) == nil && wire.WriteBody(&reply, out.Bytes()) == nil && wire.WriteBody(&reply, errOut.Bytes()) == nil {
		_, _ = c.Write(reply.Bytes())
	}
	if s.After != nil {
		s.After()
	}
}

// safeHandle runs the handler; after a panic there is no reply (ok is
// false), so the client runs the step itself.
func (s *Server) safeHandle(ctx context.Context, req *wire.Request, body []byte, out, errOut *bytes.Buffer) (code int, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			s.logf("panic serving %v: %v", req.Args, p)
			ok = false
		}
	}()
	return s.Handle(ctx, req, body, out, errOut), true
}
