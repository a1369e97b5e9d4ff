//go:build unix

package teamsync

import (
	"fmt"
	"os"
)

// syncDir flushes a folder's entries to disk, so a crash after a rename
// does not bring back the old name.
func syncDir(root *os.Root, name string) error {
	d, err := root.Open(name)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("flush %s: %w", d.Name(), err)
	}
	return nil
}
