package client

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/agenthooks/agenthooks/internal/filelock"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// How long the client waits on the engine. A request is acknowledged
// with its reply, or with the first heartbeat (after wire.HeartbeatEvery)
// when its hooks take longer; while they run the engine sends a heartbeat
// every wire.HeartbeatEvery, so silence this long means it died or hangs,
// and the step runs here instead.
const (
	ackWait = 2 * time.Second
	silence = 3 * time.Second
)

// ask runs the step on the user's engine and prints its answer. An error
// means nothing was printed and the step must run here; where the engine
// is missing, stale or out of date, a new one is started for the next
// step.
func ask(bin string, args []string, call *wire.Call, stdin []byte, readErr error, env []string, out, errOut io.Writer) (int, error) {
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
		if errors.Is(err, fs.ErrNotExist) && !starting(sock) {
			start(bin, sock, env)
		}
		return 0, err
	}
	conn, err := dial(sock, ackWait)
	if err != nil {
		// A socket file nobody listens on: an engine that died, unless
		// one is on its way in. Unless this process may not make
		// sockets at all (it runs inside a sandbox), where no engine
		// could listen.
		if !errors.Is(err, errNoSockets) && !starting(sock) {
			start(bin, sock, env)
		}
		return 0, err
	}
	defer conn.Close()
	if err := conn.checkPeer(); err != nil {
		return 0, fmt.Errorf("engine at %s: %w", sock, err)
	}

	// An agent that stops the step kills this process; the kernel then
	// closes the connection, which cancels the step in the engine and
	// stops its hooks. No handler is installed: it would cost a thread.
	code, err := exchange(conn, build, args, call, stdin, readErr, env, out, errOut)
	if errors.Is(err, errReplace) {
		start(bin, sock, env)
	}
	return code, err
}

// starting reports whether an engine holds the socket's lock: one is on
// its way in (or out), and starting another would only make it wait.
func starting(sock string) bool { return filelock.Held(wire.LockFile(sock)) }

// errReplace: the engine serves another binary, and is on its way out.
var errReplace = errors.New("the engine was started from another agenthooks binary")

// exchange sends the request and prints the reply.
func exchange(conn *conn, build string, args []string, call *wire.Call, stdin []byte, readErr error, env []string, stdout, stderr io.Writer) (int, error) {
	wd, _ := os.Getwd()
	req := wire.Request{Protocol: wire.Protocol, Build: build, Args: args, Call: call, Dir: wd, Env: env}
	if readErr != nil {
		req.StdinErr = readErr.Error()
	}
	// A large payload gets time to be copied: about 100 MB/s at worst.
	conn.SetWriteTimeout(ackWait + time.Duration(len(stdin)/100)*time.Microsecond)
	conn.SetReadTimeout(ackWait)
	if err := wire.WriteRequest(conn, &req); err != nil {
		return 0, err
	}
	if err := wire.WriteBody(conn, stdin); err != nil {
		return 0, err
	}
	ack, err := wire.ReadAck(conn)
	if err != nil {
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
		conn.SetReadTimeout(silence)
		rep, err = wire.ReadReply(conn)
		if errors.Is(err, wire.ErrHeartbeat) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("reply: %w", err)
		}
		break
	}
	out, err := wire.ReadBody(conn, wire.MaxBody)
	if err != nil {
		return 0, fmt.Errorf("reply: %w", err)
	}
	errOut, err := wire.ReadBody(conn, wire.MaxBody)
	if err != nil {
		return 0, fmt.Errorf("reply: %w", err)
	}
	// Only a whole reply is printed: a reply cut short runs the step here.
	_, _ = stdout.Write(out)
	_, _ = stderr.Write(errOut)
	return rep.Code, nil
}
