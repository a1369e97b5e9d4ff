//go:build unix && !linux

package wire

import "fmt"

// maxSockPath is what a sockaddr_un's path holds, less its final NUL.
const maxSockPath = 103

// SocketAddr is the name to bind or connect to for the socket at path;
// a path longer than a socket address holds is refused (the steps then
// run in processes of their own).
func SocketAddr(path string) (string, func(), error) {
	if len(path) > maxSockPath {
		return "", nil, fmt.Errorf("engine socket %s: the path is longer than a socket address holds (%d bytes)", path, maxSockPath)
	}
	return path, func() {}, nil
}
