package resident

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// Every request in a long run of them is answered whole. A request with
// an empty body once ended in a write of nothing after its length, which
// failed with EPIPE whenever the engine had already answered and hung up:
// one status request in twenty came back as an error.
func TestEveryRequestAnswered(t *testing.T) {
	sock := shortSocket(t)
	s := &Server{Socket: sock, Build: "b", Idle: time.Minute,
		Serves: func(*wire.Request) bool { return true },
		Handle: func(context.Context, *wire.Request, []byte, io.Writer, io.Writer) int { return 0 },
		Logf:   t.Logf}
	ctx := serve(t, s)
	n := 2000
	if runtime.GOOS == "windows" {
		n = 200 // a pipe's connection costs more there
	}
	for i := range n {
		// control1: no second try to hide a failure.
		if _, err := control1(ctx, sock, ControlStatus); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
}

// shortSocket is a socket path in a folder of the test's own: short, as a
// unix socket's name has a limit of about 100 bytes.
func shortSocket(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "res")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "e.sock")
}

// serve runs s until the test ends, and returns once it answers.
func serve(t *testing.T, s *Server) context.Context {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-served
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := control1(ctx, s.Socket, ControlStatus); err == nil {
			return ctx
		}
		if time.Now().After(deadline) {
			t.Fatal("the engine did not listen")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ask sends a step to the engine at sock and returns its acknowledgement.
func ask(t *testing.T, ctx context.Context, sock, build string) wire.Ack {
	t.Helper()
	conn, err := dialEngine(ctx, sock)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	req := wire.Request{Protocol: wire.Protocol, Build: build, Args: []string{"run", "stop"}}
	if err := wire.WriteRequest(conn, &req); err != nil {
		t.Fatal(err)
	}
	if err := wire.WriteBody(conn, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	ack, err := wire.ReadAck(conn)
	if err != nil {
		t.Fatal(err)
	}
	return ack
}

// An engine that waits (its state store will not open) refuses every
// step with its reason, so that each runs in its client, and says why in
// its status; once it stops waiting it runs them.
func TestWaitingEngineRefusesSteps(t *testing.T) {
	var why atomic.Pointer[string]
	reason := "the state store will not open"
	why.Store(&reason)
	var ran atomic.Int64
	s := &Server{Socket: shortSocket(t), Build: "b", Idle: time.Minute,
		Serves:  func(*wire.Request) bool { return true },
		Waiting: func() string { return *why.Load() },
		Handle: func(context.Context, *wire.Request, []byte, io.Writer, io.Writer) int {
			ran.Add(1)
			return 0
		},
		Logf: t.Logf}
	ctx := serve(t, s)
	if ack := ask(t, ctx, s.Socket, "b"); ack.Refused != reason || ack.Replace {
		t.Errorf("a waiting engine acknowledged a step with %+v, want it refused: %s", ack, reason)
	}
	if st, err := Control(ctx, s.Socket, ControlStatus); err != nil || st.Waiting != reason {
		t.Errorf("status of a waiting engine: %+v, %v", st, err)
	}
	none := ""
	why.Store(&none)
	if ack := ask(t, ctx, s.Socket, "b"); ack.Refused != "" {
		t.Errorf("an engine done waiting refused a step: %s", ack.Refused)
	}
	if st, err := Control(ctx, s.Socket, ControlStatus); err != nil || st.Waiting != "" || ran.Load() != 1 {
		t.Errorf("status once done waiting: %+v, %v; steps run %d, want 1", st, err, ran.Load())
	}
}

// A second engine of the same binary started on a socket already served
// leaves at once (ErrRunning); it does not wait, as it would for an engine
// of another binary making way.
func TestSecondStartLeaves(t *testing.T) {
	sock := shortSocket(t)
	engine := func(name string) *Server {
		return &Server{Socket: sock, Build: "b", Idle: time.Minute,
			Serves: func(*wire.Request) bool { return true },
			Handle: func(context.Context, *wire.Request, []byte, io.Writer, io.Writer) int { return 0 },
			Logf:   func(f string, a ...any) { t.Logf(name+": "+f, a...) }}
	}
	serve(t, engine("first"))
	second := engine("second")
	// Well under lockWait: waiting for the lock would end in ctx's error.
	ctx, cancel := context.WithTimeout(context.Background(), lockWait/2)
	defer cancel()
	if err := second.Serve(ctx); !errors.Is(err, ErrRunning) {
		t.Errorf("a second engine of the same binary: %v, want %v", err, ErrRunning)
	}
}
