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
	var cred *syscall.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return -1, fmt.Errorf("peer credentials: %w", err)
	}
	if serr != nil {
		return -1, fmt.Errorf("peer credentials: %w", serr)
	}
	return int(cred.Uid), nil
}
