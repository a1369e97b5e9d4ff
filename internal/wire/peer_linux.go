package wire

import (
	"fmt"
	"syscall"
)

// PeerUIDFD returns the user id of the process at the other end of the
// socket fd, as the kernel recorded it: a peer cannot claim another.
func PeerUIDFD(fd int) (int, error) {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return -1, fmt.Errorf("peer credentials: %w", err)
	}
	return int(cred.Uid), nil
}
