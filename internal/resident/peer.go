package resident

import (
	"fmt"
	"net"

	"github.com/agenthooks/agenthooks/internal/wire"
)

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
