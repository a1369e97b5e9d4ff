package wire

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// PeerUIDFD returns the user id of the process at the other end of the
// socket fd, as the kernel recorded it: a peer cannot claim another.
func PeerUIDFD(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return -1, fmt.Errorf("peer credentials: %w", err)
	}
	return int(cred.Uid), nil
}
