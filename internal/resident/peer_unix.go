//go:build !windows

package resident

import (
	"context"
	"fmt"
	"net"
	"os"
	"sync"
	"syscall"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// noFollow keeps the lock file from being opened through a link planted
// in its place.
const noFollow = syscall.O_NOFOLLOW

// listen listens on the unix socket sock (mode 0600, removed on close)
// and returns the address status reports: the socket's path.
func listen(sock string) (net.Listener, string, error) {
	// The caller holds the lock, so any socket file is a dead engine's.
	_ = os.Remove(sock)
	addr, done, err := wire.SocketAddr(sock)
	if err != nil {
		return nil, "", err
	}
	defer done()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: addr, Net: "unix"})
	if err != nil {
		return nil, "", fmt.Errorf("listen on %s: %w", sock, err)
	}
	// Removed by its path, not by the name it was bound with, which may
	// name a descriptor that is closed by then.
	ln.SetUnlinkOnClose(false)
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		return nil, "", fmt.Errorf("listen on %s: %w", sock, err)
	}
	return &unlinking{UnixListener: ln, path: sock}, sock, nil
}

// unlinking removes its socket file when it is first closed.
type unlinking struct {
	*net.UnixListener
	path string
	once sync.Once
}

func (u *unlinking) Close() error {
	err := u.UnixListener.Close()
	u.once.Do(func() { _ = os.Remove(u.path) })
	return err
}

// checkPeer checks that the process at the other end of c is the user's,
// and outside any sandbox this process is not in (wire.CheckPeerFD).
func checkPeer(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a unix socket: %T", c)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return fmt.Errorf("peer credentials: %w", err)
	}
	var cerr error
	if err := raw.Control(func(fd uintptr) { cerr = wire.CheckPeerFD(int(fd)) }); err != nil {
		return fmt.Errorf("peer credentials: %w", err)
	}
	return cerr
}

// dialEngine connects to the engine at sock and checks that it is the
// user's own.
func dialEngine(ctx context.Context, sock string) (net.Conn, error) {
	addr, done, err := wire.SocketAddr(sock)
	if err != nil {
		return nil, err
	}
	defer done()
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", addr)
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
