//go:build windows

package gitpush

import (
	"errors"
	"io/fs"
	"os"
)

// dirMayExist reports whether dir may exist: false only when it surely
// does not.
func dirMayExist(dir string) bool {
	_, err := os.Stat(dir)
	return !errors.Is(err, fs.ErrNotExist)
}
