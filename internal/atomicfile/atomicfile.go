// Package atomicfile replaces a file's content so that a crash or a
// concurrent reader sees the old content or the new, never half of one:
// the data goes to a temporary file beside it, is synced to disk, and is
// renamed over the file.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces path's content with data. The file is created with mode
// 0600 when it did not exist, and takes that mode when it did.
func Write(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return rename(tmp.Name(), path)
}
