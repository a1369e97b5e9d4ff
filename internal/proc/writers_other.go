//go:build !linux

package proc

import "os"

// killWriters finds nothing to kill outside Linux. On Windows the Job
// object's kill already ends every descendant, wherever it moved. On other
// unix systems finding the holders of a pipe needs libproc or kvm (cgo),
// so a descendant that left the process group survives there; Run still
// returns on time because it closes its own ends, and the survivor gets
// EPIPE or SIGPIPE on its next write.
func killWriters(...*os.File) {}
