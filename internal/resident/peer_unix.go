//go:build !windows

package resident

import (
	"context"
	"fmt"
	"net"
	"os"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// listen listens on the unix socket sock (mode 0600, removed on close)
// and returns the address status reports: the socket's path.
func listen(sock string) (net.Listener, string, error) {
	// The caller holds the lock, so any socket file is a dead engine's.
	_ = os.Remove(sock)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		return nil, "", fmt.Errorf("listen on %s: %w", sock, err)
	}
	ln.SetUnlinkOnClose(true)
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		return nil, "", fmt.Errorf("listen on %s: %w", sock, err)
	}
	return ln, sock, nil
}

// checkPeer checks that the process at the other end of c is the user's.
func checkPeer(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a unix socket: %T", c)
	}
	if uid, err := peerUID(uc); err != nil || uid != os.Getuid() {
		return fmt.Errorf("uid %d: %v", uid, err)
	}
	return nil
}

// dialEngine connects to the engine at sock and checks that it is the
// user's own.
func dialEngine(ctx context.Context, sock string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", sock, err)
	}
	if err := checkPeer(c); err != nil {
		c.Close()
		return nil, fmt.Errorf("the engine at %s is not the user's own", sock)
	}
	return c, nil
}

// Listening reports whether an engine's socket is at sock: a stopped
// engine removes it on its way out.
func Listening(sock string) bool {
	_, err := os.Lstat(sock)
	return err == nil
}

// peerUID is the user id of the process at the other end of c (the
// kernel's record of it). It lives here rather than in package wire so
// that the client, which uses plain system calls, does not link the net
// package (and with it the C resolver and dynamic linking).
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, fmt.Errorf("peer credentials: %w", err)
	}
	uid, serr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) { uid, serr = wire.PeerUIDFD(int(fd)) }); err != nil {
		return -1, fmt.Errorf("peer credentials: %w", err)
	}
	return uid, serr
}
