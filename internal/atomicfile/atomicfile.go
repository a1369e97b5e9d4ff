// Package atomicfile replaces a file's content so that a crash or a
// concurrent reader sees the old content or the new, never half of one:
// the data goes to a temporary file beside it, is synced to disk, and is
// renamed over the file. Every file the project writes for a user (the
// trust store, an agent's settings, an exported hooks file, the spool)
// goes through it.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path's content with data. The file is created with mode
// 0600 when it did not exist, and takes that mode when it did.
func Write(path string, data []byte) error { return WriteMode(path, data, 0o600) }

// WriteMode is Write with the permission bits perm, set exactly (the
// umask does not apply), whether the file existed or not; a caller that
// keeps an existing file's mode passes it. The folder must exist.
func WriteMode(path string, data []byte, perm fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm.Perm()); err != nil {
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
