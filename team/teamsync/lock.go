package teamsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agenthooks/agenthooks/internal/filelock"
)

// lockPoll is how often a waiting sync retries the team's lock.
const lockPoll = 50 * time.Millisecond

// lockTeam takes the team folder's lock (a file lock on sync.lock),
// waiting while another sync holds it, until ctx ends. The lock dies with
// the process, so a killed sync never leaves the team locked. Where the
// system has no file locks it is granted at once.
func lockTeam(ctx context.Context, folder *os.Root) (func(), error) {
	f, err := folder.OpenFile(lockName, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", filepath.Join(folder.Name(), lockName), err)
	}
	for {
		ok, err := filelock.TryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", f.Name(), err)
		}
		if ok {
			return func() {
				_ = filelock.Unlock(f) // closing would release it too
				f.Close()
			}, nil
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
