package wire

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// PeerUID returns the user id of the process at the other end of c, as
// the kernel recorded it (LOCAL_PEERCRED, what getpeereid reads).
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
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return -1, fmt.Errorf("peer credentials: %w", err)
	}
	return int(cred.Uid), nil
}
