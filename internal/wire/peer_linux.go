package wire

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
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

// CheckPeerFD checks the process at the other end of the unix socket fd:
// it runs as this user, and it is no more confined than this process. A
// process inside a sandbox (agenthooks', or any other that sets
// no_new_privs or adds a seccomp filter) is more confined than the
// processes outside it, and can drop neither: so a sandboxed command can
// neither be served by the engine (its steps would run outside, with what
// it chose) nor stand in for the engine (docs/sandbox.md). The kernel's
// record of the peer (SO_PEERCRED, and SO_PEERPIDFD where the kernel has
// it) is what is checked, not anything the peer says.
func CheckPeerFD(fd int) error {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return fmt.Errorf("peer credentials: %w", err)
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("the peer runs as uid %d, not as this user", cred.Uid)
	}
	// The pidfd pins the process: its pid cannot be taken by another
	// until it is reaped, which the check below sees.
	pidfd, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_PEERPIDFD)
	if err != nil {
		// Kernels before 6.5: a pidfd of the pid the kernel recorded;
		// before 5.3, none (the pid is read as it is).
		if pidfd, err = unix.PidfdOpen(int(cred.Pid), 0); errors.Is(err, unix.ENOSYS) {
			pidfd = -1
		} else if err != nil {
			return fmt.Errorf("the peer (pid %d) is gone: %w", cred.Pid, err)
		}
	}
	if pidfd >= 0 {
		defer unix.Close(pidfd)
	}
	peer, err := readConfinement(strconv.Itoa(int(cred.Pid)))
	if err != nil {
		return err
	}
	if pidfd >= 0 {
		if err := unix.PidfdSendSignal(pidfd, 0, nil, 0); err != nil {
			return fmt.Errorf("the peer (pid %d) went away while it was checked: %w", cred.Pid, err)
		}
	}
	self, err := selfConfinement()
	if err != nil {
		return err
	}
	if peer.noNewPrivs > self.noNewPrivs || peer.filters > self.filters {
		return fmt.Errorf("%w (pid %d: no_new_privs %d, %d seccomp filters; here %d, %d)",
			ErrConfinedPeer, cred.Pid, peer.noNewPrivs, peer.filters, self.noNewPrivs, self.filters)
	}
	return nil
}

// confinement is what /proc/PID/status says of a process's confinement,
// which it can only ever add to.
type confinement struct {
	noNewPrivs int
	filters    int // seccomp filters; 1 for strict mode, or any filter where the count is not shown
}

var (
	selfOnce sync.Once
	selfConf confinement
	selfErr  error
)

func selfConfinement() (confinement, error) {
	selfOnce.Do(func() { selfConf, selfErr = readConfinement("self") })
	return selfConf, selfErr
}

// readConfinement reads pid's status.
func readConfinement(pid string) (confinement, error) {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return confinement{}, fmt.Errorf("the peer's status: %w", err)
	}
	var c confinement
	mode, count := -1, -1
	nnp := false
	for line := range bytes.Lines(b) {
		k, v, ok := bytes.Cut(bytes.TrimSpace(line), []byte(":"))
		if !ok {
			continue
		}
		n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
		if err != nil {
			continue
		}
		switch string(k) {
		case "NoNewPrivs":
			c.noNewPrivs, nnp = n, true
		case "Seccomp":
			mode = n
		case "Seccomp_filters":
			count = n
		}
	}
	switch {
	case !nnp || mode < 0:
		return confinement{}, fmt.Errorf("/proc/%s/status does not say whether the process is confined", pid)
	case count >= 0:
		c.filters = count
	case mode > 0:
		c.filters = 1
	}
	return c, nil
}
