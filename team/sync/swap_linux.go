package sync

import (
	"context"
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// swap puts the staged folder in place of the live one with
// renameat2(RENAME_EXCHANGE): one atomic step, after which the staging
// name holds the old set. Without a live folder it is a plain rename
// that refuses to replace anything. File systems that cannot exchange
// fall back to renameDance. It returns the old set's name ("" for none).
func swap(ctx context.Context, team *os.Root, staged string) (string, error) {
	d, err := team.Open(".")
	if err != nil {
		return "", err
	}
	defer d.Close()
	fd := int(d.Fd())
	err = unix.Renameat2(fd, staged, fd, liveName, unix.RENAME_EXCHANGE)
	if err == nil {
		return staged, nil
	}
	if errors.Is(err, unix.ENOENT) {
		err = unix.Renameat2(fd, staged, fd, liveName, unix.RENAME_NOREPLACE)
		if err == nil {
			return "", nil
		}
	}
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return renameDance(ctx, team, staged)
	}
	return "", &os.LinkError{Op: "renameat2", Old: staged, New: liveName, Err: err}
}
