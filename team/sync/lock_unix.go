//go:build unix

package sync

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// lockPoll is how often a waiting sync retries the team's lock.
const lockPoll = 50 * time.Millisecond

// lockTeam takes the team folder's lock (flock on sync.lock), waiting
// while another sync holds it, until ctx ends. The lock dies with the
// process, so a killed sync never leaves the team locked.
func lockTeam(ctx context.Context, team *os.Root) (func(), error) {
	f, err := team.OpenFile(lockName, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", filepath.Join(team.Name(), lockName), err)
	}
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", f.Name(), err)
		}
		t := time.NewTimer(lockPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, fmt.Errorf("waiting for another sync of this team: %w", ctx.Err())
		case <-t.C:
		}
	}
}

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
