package wire

import (
	"fmt"
	"net"
	"syscall"
)

// PeerUID returns the user id of the process at the other end of c, as
// the kernel recorded it (SO_PEERCRED): a peer cannot claim another.
func PeerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, fmt.Errorf("peer credentials: %w", err)
	}
	uid, serr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) { uid, serr = PeerUIDFD(int(fd)) }); err != nil {
		return -1, fmt.Errorf("peer credentials: %w", err)
	}
	return uid, serr
}

// PeerUIDFD is PeerUID for a socket's file descriptor.
func PeerUIDFD(fd int) (int, error) {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return -1, fmt.Errorf("peer credentials: %w", err)
	}
	return int(cred.Uid), nil
}
