//go:build windows

package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"

	"github.com/agenthooks/agenthooks/internal/resident"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// envFull makes this test binary play agenthooks-engine: `engine …` does
// nothing, any other verb answers "here: ARGS" and exits 3. A step that
// falls back runs here, in a process of it.
const envFull = "AGENTHOOKS_FRONT_TEST_FULL"

func TestMain(m *testing.M) {
	if os.Getenv(envFull) == "1" {
		if len(os.Args) > 1 && os.Args[1] == "engine" {
			os.Exit(0)
		}
		in, _ := io.ReadAll(os.Stdin)
		fmt.Printf("here: %s [%s]", strings.Join(os.Args[1:], " "), in)
		os.Exit(3)
	}
	os.Exit(m.Run())
}

// tempDir is a temporary folder removed one entry at a time (RemoveAll,
// which t.TempDir uses, relies on a call some Windows compatible systems
// lack).
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "front")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// An engine a step started (this binary, which exits at once)
		// may still hold its log open for a moment.
		deadline := time.Now().Add(10 * time.Second)
		for {
			err := removeEach(dir)
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("clean up: %v", err)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	return dir
}

// removeEach removes dir and what it holds, deepest first, and returns
// the first error.
func removeEach(dir string) error {
	var all []string
	_ = filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		all = append(all, p)
		return nil
	})
	var first error
	for i := len(all) - 1; i >= 0; i-- {
		if err := os.Remove(all[i]); err != nil && first == nil && !errors.Is(err, fs.ErrNotExist) {
			first = err
		}
	}
	return first
}

// pipeWorld is a folder of engines of its own (TMP), this test binary as
// the full binary, and the socket path its clients use.
type pipeWorld struct {
	t    *testing.T
	bin  string
	sock string
	pipe string
}

func newPipeWorld(t *testing.T) *pipeWorld {
	t.Helper()
	t.Setenv("TMP", tempDir(t))
	t.Setenv(envFull, "1")
	t.Setenv(EnvEngine, "")
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := wire.Dir(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	w := &pipeWorld{t: t, bin: bin, sock: filepath.Join(dir, wire.SocketName(os.Environ()))}
	if w.pipe, err = wire.PipeName(w.sock); err != nil {
		t.Fatal(err)
	}
	return w
}

// engine runs a resident engine for the world in this process; its
// handler answers "engine: ARGS [STDIN]" with exit code 7.
func (w *pipeWorld) engine() *resident.Server {
	w.t.Helper()
	build, err := wire.Identity(w.bin)
	if err != nil {
		w.t.Fatal(err)
	}
	s := &resident.Server{Socket: w.sock, Build: build, Idle: time.Minute, Serves: func(r *wire.Request) bool { return Served(r.Args) }, Logf: w.t.Logf,
		Handle: func(_ context.Context, req *wire.Request, body []byte, out, _ io.Writer) int {
			fmt.Fprintf(out, "engine: %s [%s]", strings.Join(req.Args, " "), body)
			return 7
		}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	w.t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			w.t.Errorf("serve: %v", err)
		}
	})
	w.waitPipe()
	return s
}

// waitPipe waits for the world's pipe to be served.
func (w *pipeWorld) waitPipe() {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := resident.Control(context.Background(), w.sock, resident.ControlStatus); err == nil {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatal("the engine did not listen")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// fake serves the world's pipe with conversation for every client, as an
// engine that misbehaves would.
func (w *pipeWorld) fake(conversation func(c net.Conn)) {
	w.t.Helper()
	sid, err := wire.UserSID()
	if err != nil {
		w.t.Fatal(err)
	}
	ln, err := winio.ListenPipe(w.pipe, &winio.PipeConfig{SecurityDescriptor: "D:P(A;;GA;;;" + sid.String() + ")", InputBufferSize: 64 << 10, OutputBufferSize: 64 << 10})
	if err != nil {
		w.t.Fatal(err)
	}
	primePipe(w.t, w.pipe)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				conversation(c)
			}()
		}
	}()
	w.t.Cleanup(func() {
		ln.Close()
		<-done
	})
}

// primePipe connects to a new pipe once and hangs up. The listener holds
// the pipe's first instance open without access, which keeps clients
// away on Windows; Wine hands the first client that instance, which
// nobody reads: the test's clients must not be that one.
func primePipe(t *testing.T, name string) {
	t.Helper()
	if c, err := wire.DialPipe(name, 100*time.Millisecond); err == nil {
		c.Close()
	}
}

// step runs a step as the client does, and how long it took.
func (w *pipeWorld) step(args ...string) (string, int, time.Duration) {
	w.t.Helper()
	var out, errOut bytes.Buffer
	t0 := time.Now()
	code := step(w.bin, args, []byte("payload"), nil, &out, &errOut)
	if errOut.Len() > 0 {
		w.t.Logf("stderr: %s", errOut.String())
	}
	return out.String(), code, time.Since(t0)
}

const (
	engineAnswer = "engine: run beforeShellExecution [payload]"
	hereAnswer   = "here: run beforeShellExecution [payload]"
)

// A step goes over the pipe to the engine, which answers it whole.
func TestPipeServesStep(t *testing.T) {
	w := newPipeWorld(t)
	w.engine()
	for i := range 3 {
		out, code, _ := w.step("run", "beforeShellExecution")
		if out != engineAnswer || code != 7 {
			t.Fatalf("step %d: %q, exit %d; want the engine's answer", i, out, code)
		}
	}
	st, err := resident.Control(context.Background(), w.sock, resident.ControlStatus)
	if err != nil {
		t.Fatal(err)
	}
	if st.Steps != 3 || st.Socket != w.pipe || st.PID != os.Getpid() {
		t.Errorf("status: %+v; want 3 steps by pid %d on %s", st, os.Getpid(), w.pipe)
	}
	if !strings.HasPrefix(w.pipe, `\\.\pipe\agenthooks-S-1-`) || !strings.Contains(w.pipe, fmt.Sprintf("-engine-v%d-", wire.Protocol)) {
		t.Errorf("pipe name %s", w.pipe)
	}
}

// Without an engine the step runs in a process of the full binary.
func TestPipeAbsentRunsHere(t *testing.T) {
	w := newPipeWorld(t)
	out, code, took := w.step("run", "beforeShellExecution")
	if out != hereAnswer || code != 3 {
		t.Fatalf("%q, exit %d; want the full binary's answer", out, code)
	}
	t.Logf("took %v", took)
}

// A client that does not take the server for the user's own sends it
// nothing and runs the step itself.
func TestPipeOtherUsersEngineRefused(t *testing.T) {
	w := newPipeWorld(t)
	s := w.engine()
	other, err := windows.StringToSid("S-1-5-21-1-2-3-1001")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wire.SetPeerSID(nil) })
	wire.SetPeerSID(other)
	out, code, _ := w.step("run", "beforeShellExecution")
	wire.SetPeerSID(nil)
	if out != hereAnswer || code != 3 {
		t.Fatalf("%q, exit %d; want the full binary's answer", out, code)
	}
	st, err := resident.Control(context.Background(), w.sock, resident.ControlStatus)
	if err != nil {
		t.Fatal(err)
	}
	if st.Steps != 0 {
		t.Errorf("the engine served %d steps; want none", st.Steps)
	}
	_ = s
}

// An engine that never answers costs at most the acknowledgement's wait.
func TestPipeSilentEngineRunsHere(t *testing.T) {
	w := newPipeWorld(t)
	w.fake(func(c net.Conn) { _, _ = io.Copy(io.Discard, c) })
	out, code, took := w.step("run", "beforeShellExecution")
	if out != hereAnswer || code != 3 {
		t.Fatalf("%q, exit %d; want the full binary's answer", out, code)
	}
	if took < ackWait || took > ackWait+10*time.Second {
		t.Errorf("took %v; want the acknowledgement's wait (%v) and a process", took, ackWait)
	}
}

// An engine that goes silent after its acknowledgement costs at most the
// silence; one that dies mid-reply prints nothing of it.
func TestPipeEngineDiesMidRequest(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(c net.Conn)
	}{
		{"silent", func(c net.Conn) { _, _ = io.Copy(io.Discard, c) }},
		{"closed", func(net.Conn) {}},
		{"reply cut short", func(c net.Conn) {
			_ = wire.WriteReply(c, wire.Reply{Code: 0})
			_, _ = c.Write([]byte{0, 0, 0, 0, 0, 0, 0, 100, 'x'})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newPipeWorld(t)
			w.fake(func(c net.Conn) {
				var req wire.Request
				if err := wire.ReadRequest(c, &req); err != nil {
					t.Logf("fake engine: %v", err)
					return
				}
				if _, err := wire.ReadBody(c, wire.MaxBody); err != nil {
					t.Logf("fake engine: %v", err)
					return
				}
				if err := wire.WriteAck(c, wire.Ack{}); err != nil {
					t.Logf("fake engine: %v", err)
				}
				_ = wire.WriteHeartbeat(c)
				tc.end(c)
			})
			out, code, took := w.step("run", "beforeShellExecution")
			if out != hereAnswer || code != 3 {
				t.Fatalf("%q, exit %d; want the full binary's answer", out, code)
			}
			if took > silence+10*time.Second {
				t.Errorf("took %v; want at most the silence (%v) and a process", took, silence)
			}
		})
	}
}

// A request too large to go out before the write's limit fails with a
// deadline, not a hang.
func TestPipeWriteTimeout(t *testing.T) {
	w := newPipeWorld(t)
	w.fake(func(c net.Conn) { time.Sleep(5 * time.Second) })
	c, err := dial(w.sock, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.checkPeer(); err != nil {
		t.Fatal(err)
	}
	c.SetWriteTimeout(300 * time.Millisecond)
	t0 := time.Now()
	_, err = c.Write(make([]byte, 4<<20))
	if !os.IsTimeout(err) || time.Since(t0) > 3*time.Second {
		t.Fatalf("write: %v after %v; want a deadline after 300ms", err, time.Since(t0))
	}
}
