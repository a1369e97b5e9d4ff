package wire

import (
	"fmt"
	"os"

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

// CheckPeerFD checks that the process at the other end of the unix socket
// fd runs as this user. macOS does not show whether a process is inside a
// Seatbelt sandbox; its profile refuses unix sockets instead
// (docs/sandbox.md).
func CheckPeerFD(fd int) error {
	uid, err := PeerUIDFD(fd)
	if err != nil {
		return err
	}
	if uid != os.Getuid() {
		return fmt.Errorf("the peer runs as uid %d, not as this user", uid)
	}
	return nil
}
