//go:build !linux

package gitpush

import (
	"os"
	"time"
)

// fileID is what stat says of a file that shows a change: the file,
// its modification time and size.
type fileID struct {
	info os.FileInfo
}

// statID stats path; ok is false when it cannot be (it does not exist).
func statID(path string) (id fileID, ok bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{}, false
	}
	return fileID{info: fi}, true
}

func (a fileID) sameAs(b fileID) bool {
	return os.SameFile(a.info, b.info) && a.info.ModTime().Equal(b.info.ModTime()) &&
		a.info.Size() == b.info.Size()
}

func (a fileID) modTime() time.Time { return a.info.ModTime() }
