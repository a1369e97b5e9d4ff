//go:build windows

package resident

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// serveTemp runs an engine whose socket path is in a new folder and
// waits until it answers.
func serveTemp(t *testing.T) (*Server, string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "res")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "e.sock")
	s := &Server{Socket: sock, Build: "b", Idle: time.Minute,
		Serves: func(*wire.Request) bool { return true },
		Handle: func(_ context.Context, _ *wire.Request, body []byte, out, _ io.Writer) int {
			out.Write(body)
			return 0
		},
		Logf: t.Logf}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-served
		// One entry at a time: RemoveAll relies on a call that Wine lacks.
		os.Remove(wire.LockFile(sock))
		os.Remove(dir)
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := Control(ctx, sock, ControlStatus); err == nil {
			return s, sock
		}
		if time.Now().After(deadline) {
			t.Fatal("the engine did not listen")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The engine listens on the socket path's pipe, answers its user's
// status requests, and is seen listening until it stops.
func TestPipeStatus(t *testing.T) {
	_, sock := serveTemp(t)
	name, err := wire.PipeName(sock)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		st, err := control1(context.Background(), sock, ControlStatus)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if st.Socket != name || st.PID != os.Getpid() {
			t.Fatalf("status %+v; want pid %d on %s", st, os.Getpid(), name)
		}
	}
	if !Listening(sock) {
		t.Error("the engine is not seen listening")
	}
	if _, err := Control(context.Background(), sock, ControlStop); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for Listening(sock) {
		if time.Now().After(deadline) {
			t.Fatal("the engine is still seen listening after it stopped")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The engine says nothing at all to a client that does not run as its
// user. The client here is this process, which the engine is made to
// take for another user's.
func TestPipeRefusesOtherUser(t *testing.T) {
	_, sock := serveTemp(t)
	name, err := wire.PipeName(sock)
	if err != nil {
		t.Fatal(err)
	}
	other, err := windows.StringToSid("S-1-5-21-1-2-3-1001")
	if err != nil {
		t.Fatal(err)
	}
	wire.SetPeerSID(other)
	t.Cleanup(func() { wire.SetPeerSID(nil) })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := winio.DialPipeContext(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if err := wire.WriteRequest(c, &wire.Request{Protocol: wire.Protocol, Control: ControlStatus}); err == nil {
		_ = wire.WriteBody(c, nil)
	}
	b, err := io.ReadAll(c)
	if len(b) != 0 || os.IsTimeout(err) {
		t.Fatalf("the engine answered %q (%v); want it to hang up", b, err)
	}
}

// A pipe of the engine's name that exists already (another user's,
// squatting it) is never shared: the engine does not serve.
func TestPipeSquattedNameNotShared(t *testing.T) {
	if windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil {
		t.Skip("Wine creates a pipe's first instance again (FILE_FLAG_FIRST_PIPE_INSTANCE, FILE_CREATE) where Windows refuses")
	}
	dir, err := os.MkdirTemp("", "res")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "e.sock")
	t.Cleanup(func() {
		os.Remove(wire.LockFile(sock))
		os.Remove(dir)
	})
	name, err := wire.PipeName(sock)
	if err != nil {
		t.Fatal(err)
	}
	// Everyone may use the squatter's pipe.
	ln, err := winio.ListenPipe(name, &winio.PipeConfig{SecurityDescriptor: "D:P(A;;GA;;;WD)"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	s := &Server{Socket: sock, Build: "b", Idle: time.Minute, Logf: t.Logf,
		Handle: func(context.Context, *wire.Request, []byte, io.Writer, io.Writer) int { return 0 }}
	t0 := time.Now()
	err = s.Serve(context.Background())
	if err == nil || !strings.Contains(err.Error(), name) {
		t.Fatalf("serve on a squatted name: %v", err)
	}
	t.Logf("%v after %v", err, time.Since(t0))
}
