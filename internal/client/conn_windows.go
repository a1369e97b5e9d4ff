//go:build windows

package client

import (
	"time"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// conn is the client's end of the engine's named pipe (wire.PipeConn:
// plain system calls, overlapped I/O with a time limit on every read
// and write).
type conn struct{ *wire.PipeConn }

// dial opens the pipe of the engine for the socket path sock, waiting
// at most timeout for a free instance.
func dial(sock string, timeout time.Duration) (*conn, error) {
	name, err := wire.PipeName(sock)
	if err != nil {
		return nil, err
	}
	c, err := wire.DialPipe(name, timeout)
	if err != nil {
		return nil, err
	}
	return &conn{c}, nil
}

// checkPeer checks, before anything is sent, that the process serving
// the pipe runs as this process's user.
func (c *conn) checkPeer() error { return wire.CheckPipeServer(c.Handle()) }
