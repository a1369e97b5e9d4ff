//go:build unix

package client

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// conn is a blocking unix socket used with plain system calls: the
// client sends one request and reads one reply, and the net package's
// poller would cost it threads and a few hundred microseconds to start.
type conn struct{ fd int }

// dial connects to the socket at path, waiting at most timeout.
func dial(path string, timeout time.Duration) (*conn, error) {
	addr, done, err := wire.SocketAddr(path)
	if err != nil {
		return nil, err
	}
	defer done()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNoSockets, err)
	}
	syscall.CloseOnExec(fd)
	c := &conn{fd: fd}
	c.setTimeout(syscall.SO_SNDTIMEO, timeout)
	for {
		err = syscall.Connect(fd, &syscall.SockaddrUnix{Name: addr})
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("dial %s: %w", path, err)
	}
	return c, nil
}

func (c *conn) setTimeout(opt int, d time.Duration) {
	tv := syscall.NsecToTimeval(d.Nanoseconds())
	_ = syscall.SetsockoptTimeval(c.fd, syscall.SOL_SOCKET, opt, &tv)
}

// SetReadTimeout bounds each read from now on; SetWriteTimeout each write.
func (c *conn) SetReadTimeout(d time.Duration)  { c.setTimeout(syscall.SO_RCVTIMEO, d) }
func (c *conn) SetWriteTimeout(d time.Duration) { c.setTimeout(syscall.SO_SNDTIMEO, d) }

func (c *conn) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(c.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return 0, os.ErrDeadlineExceeded
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, errEOF
		}
		return n, nil
	}
}

func (c *conn) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, err := syscall.Write(c.fd, p[done:])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return done, os.ErrDeadlineExceeded
		case err != nil:
			return done, err
		}
		done += n
	}
	return done, nil
}

// errEOF: the engine closed the connection.
var errEOF = errors.New("the engine closed the connection")

func (c *conn) Close() error { return syscall.Close(c.fd) }

// checkPeer checks that the process listening is the user's own, and
// outside any sandbox this process is not in: a sandboxed command that
// listened in the engine's place would answer every step.
func (c *conn) checkPeer() error {
	if err := wire.CheckPeerFD(c.fd); err != nil {
		return fmt.Errorf("the engine cannot be trusted: %w", err)
	}
	return nil
}
