package wire

import (
	"fmt"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// maxSockPath is what a sockaddr_un's path holds, less its final NUL.
const maxSockPath = 107

// SocketAddr is the name to bind or connect to for the socket at path,
// and what to call once that is done. A path longer than a socket
// address holds (a home deep in a temporary folder) is reached through a
// descriptor of its folder: /proc/self/fd/N/NAME.
func SocketAddr(path string) (string, func(), error) {
	if len(path) <= maxSockPath {
		return path, func() {}, nil
	}
	fd, err := unix.Open(filepath.Dir(path), unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", nil, fmt.Errorf("engine socket %s: %w", path, err)
	}
	return "/proc/self/fd/" + strconv.Itoa(fd) + "/" + filepath.Base(path), func() { unix.Close(fd) }, nil
}
