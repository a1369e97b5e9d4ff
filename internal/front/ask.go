package front

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// How long the client waits on the engine. A request is acknowledged at
// once; while its hooks run the engine sends a heartbeat every
// wire.HeartbeatEvery, so silence this long means it died or hangs, and
// the step runs here instead.
const (
	ackWait = 2 * time.Second
	silence = 3 * time.Second
)

// errInterrupted: the client was told to stop while the engine ran the step.
var errInterrupted = errors.New("interrupted")

// ask runs the step on the user's engine and prints its answer. An error
// means nothing was printed and the step must run here; where the engine
// is missing, stale or out of date, a new one is started for the next
// step.
func ask(bin string, args []string, stdin []byte, readErr error, env []string) (int, error) {
	dir, err := wire.Dir(os.Getenv)
	if err != nil {
		return 0, err
	}
	sock := filepath.Join(dir, wire.SocketName(env))
	build, err := wire.Identity(bin)
	if err != nil {
		return 0, err
	}
	if err := wire.CheckSocket(sock); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			start(bin, sock, env)
		}
		return 0, err
	}
	c, err := net.DialTimeout("unix", sock, ackWait)
	if err != nil {
		// A socket file nobody listens on: an engine that died.
		start(bin, sock, env)
		return 0, fmt.Errorf("dial %s: %w", sock, err)
	}
	conn := c.(*net.UnixConn)
	defer conn.Close()
	if uid, err := wire.PeerUID(conn); err != nil || uid != os.Getuid() {
		return 0, fmt.Errorf("engine at %s is not the user's own (uid %d): %v", sock, uid, err)
	}

	var stopped atomic.Bool
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, interruptSignals...)
	defer signal.Stop(sigs)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-sigs:
			// Closing the connection cancels the step in the engine: its
			// hooks are stopped, as they would be here.
			stopped.Store(true)
			conn.Close()
		case <-done:
		}
	}()

	code, err := exchange(conn, build, args, stdin, readErr, env)
	if stopped.Load() {
		return 0, errInterrupted
	}
	if errors.Is(err, errReplace) {
		start(bin, sock, env)
	}
	return code, err
}

// errReplace: the engine serves another binary, and is on its way out.
var errReplace = errors.New("the engine was started from another agenthooks binary")

// exchange sends the request and prints the reply.
func exchange(conn *net.UnixConn, build string, args []string, stdin []byte, readErr error, env []string) (int, error) {
	wd, _ := os.Getwd()
	req := wire.Request{Protocol: wire.Protocol, Build: build, Args: args, Dir: wd, Env: env}
	if readErr != nil {
		req.StdinErr = readErr.Error()
	}
	// A large payload gets time to be copied: about 100 MB/s at worst.
	conn.SetDeadline(time.Now().Add(ackWait + time.Duration(len(stdin)/100)*time.Microsecond))
	if err := wire.WriteHeader(conn, req); err != nil {
		return 0, err
	}
	if err := wire.WriteBody(conn, stdin); err != nil {
		return 0, err
	}
	var ack wire.Ack
	if err := wire.ReadHeader(conn, &ack); err != nil {
		return 0, fmt.Errorf("acknowledgement: %w", err)
	}
	switch {
	case ack.Replace:
		return 0, errReplace
	case ack.Refused != "":
		return 0, fmt.Errorf("%w: %s", errRefused, ack.Refused)
	}
	var rep wire.Reply
	for {
		conn.SetReadDeadline(time.Now().Add(silence))
		err := wire.ReadHeader(conn, &rep)
		if errors.Is(err, wire.ErrHeartbeat) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("reply: %w", err)
		}
		break
	}
	conn.SetReadDeadline(time.Now().Add(silence))
	out, err := wire.ReadBody(conn, wire.MaxBody)
	if err != nil {
		return 0, fmt.Errorf("reply: %w", err)
	}
	errOut, err := wire.ReadBody(conn, wire.MaxBody)
	if err != nil {
		return 0, fmt.Errorf("reply: %w", err)
	}
	// Only a whole reply is printed: a reply cut short runs the step here.
	os.Stdout.Write(out)
	os.Stderr.Write(errOut)
	return rep.Code, nil
}
