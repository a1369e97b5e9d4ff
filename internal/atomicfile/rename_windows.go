//go:build windows

package atomicfile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// rename replaces newpath with oldpath. On Windows a reader that has the
// file open makes the replace fail for a moment
// with a sharing violation, so retry for up to a second.
func rename(oldpath, newpath string) error {
	var err error
	for range 50 {
		err = os.Rename(oldpath, newpath)
		if !errors.Is(err, windows.ERROR_ACCESS_DENIED) && !errors.Is(err, windows.ERROR_SHARING_VIOLATION) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
	return err
}
