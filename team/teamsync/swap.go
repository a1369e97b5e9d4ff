package teamsync

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"time"
)

// renameAttempts and renameBackoff bound the retries of a rename. On
// Windows a folder cannot be renamed while a process has a handle in it
// (a hook running from it, an indexer, an antivirus scan); that passes.
const (
	renameAttempts = 6
	renameBackoff  = 50 * time.Millisecond
)

// renameDance swaps the staged folder in with two renames, for systems
// without an atomic exchange: the live folder is moved aside, the staged
// one moved in. Between the two there is no live folder, which readers
// take as "no team hooks" (never as part of a set); when the second
// rename fails, the first is undone. It returns the name the old set
// now has ("" when there was none).
func renameDance(ctx context.Context, folder *os.Root, staged string) (string, error) {
	old := oldPrefix + randomSuffix()
	err := retryRename(ctx, func() error { return folder.Rename(liveName, old) })
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = ""
	case err != nil:
		return "", err
	}
	if err := retryRename(ctx, func() error { return folder.Rename(staged, liveName) }); err != nil {
		if old != "" {
			_ = folder.Rename(old, liveName)
		}
		return "", err
	}
	return old, nil
}

// retryRename runs rename until it succeeds, fails for a reason waiting
// does not cure (something missing), the attempts run out or ctx ends.
func retryRename(ctx context.Context, rename func() error) error {
	delay := renameBackoff
	for i := 1; ; i++ {
		err := rename()
		if err == nil || errors.Is(err, fs.ErrNotExist) || i == renameAttempts {
			return err
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		delay *= 2
	}
}
