package sync

import (
	"context"
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// swap puts the staged folder in place of the live one with
// renameatx_np(RENAME_SWAP): one atomic step, after which the staging
// name holds the old set. Without a live folder it is a rename that
// refuses to replace anything. File systems that cannot swap fall back to
// renameDance. It returns the old set's name ("" for none).
func swap(ctx context.Context, team *os.Root, staged string) (string, error) {
	d, err := team.Open(".")
	if err != nil {
		return "", err
	}
	defer d.Close()
	fd := int(d.Fd())
	err = unix.RenameatxNp(fd, staged, fd, liveName, unix.RENAME_SWAP)
	if err == nil {
		return staged, nil
	}
	if errors.Is(err, unix.ENOENT) {
		err = unix.RenameatxNp(fd, staged, fd, liveName, unix.RENAME_EXCL)
		if err == nil {
			return "", nil
		}
	}
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return renameDance(ctx, team, staged)
	}
	return "", &os.LinkError{Op: "renameatx_np", Old: staged, New: liveName, Err: err}
}
