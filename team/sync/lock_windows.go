package sync

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/windows"
)

// lockPoll is how often a waiting sync retries the team's lock.
const lockPoll = 50 * time.Millisecond

// lockTeam takes the team folder's lock (LockFileEx on sync.lock),
// waiting while another sync holds it, until ctx ends. The lock dies with
// the process.
func lockTeam(ctx context.Context, team *os.Root) (func(), error) {
	f, err := team.OpenFile(lockName, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", filepath.Join(team.Name(), lockName), err)
	}
	h := windows.Handle(f.Fd())
	for {
		ol := new(windows.Overlapped)
		err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
		if err == nil {
			return func() {
				_ = windows.UnlockFileEx(h, 0, 1, 0, new(windows.Overlapped))
				f.Close()
			}, nil
		}
		if !errors.Is(err, windows.ERROR_LOCK_VIOLATION) && !errors.Is(err, windows.ERROR_IO_PENDING) {
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

// syncDir does nothing: Windows cannot flush a folder handle, and NTFS
// journals renames.
func syncDir(*os.Root, string) error { return nil }
