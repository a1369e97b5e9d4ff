package gitpush

import (
	"syscall"
	"time"
)

// fileID is what stat says of a file that shows a change: the file
// (device and inode), its modification time and size. It is read with
// stat(2) into a buffer on the stack: every decision on a repeated line
// stats the configuration files, and os.Stat allocates for each.
type fileID struct {
	dev, ino uint64
	mtime    int64 // nanoseconds since the epoch
	size     int64
}

// statID stats path; ok is false when it cannot be (it does not exist).
func statID(path string) (id fileID, ok bool) {
	var st syscall.Stat_t
	if !stat(path, &st) {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino), mtime: st.Mtim.Nano(), size: st.Size}, true
}

func (a fileID) sameAs(b fileID) bool { return a == b }

func (a fileID) modTime() time.Time { return time.Unix(0, a.mtime) }
