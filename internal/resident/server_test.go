package resident

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// Every request in a long run of them is answered whole. A request with
// an empty body once ended in a write of nothing after its length, which
// failed with EPIPE whenever the engine had already answered and hung up:
// one status request in twenty came back as an error.
func TestEveryRequestAnswered(t *testing.T) {
	// A short path: a unix socket's name has a limit of about 100 bytes.
	dir, err := os.MkdirTemp("", "res")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "e.sock")
	s := &Server{Socket: sock, Build: "b", Idle: time.Minute,
		Serves: func([]string) bool { return true },
		Handle: func(context.Context, *wire.Request, []byte, io.Writer, io.Writer) int { return 0 },
		Logf:   t.Logf}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-served
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := control1(ctx, sock, ControlStatus); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the engine did not listen")
		}
		time.Sleep(10 * time.Millisecond)
	}
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
