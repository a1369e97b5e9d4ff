//go:build linux || darwin

package teamsync

import (
	"context"
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// atomicRename is a system's rename of a name in one folder (fd) with
// flags: exchange swaps two names, noReplace refuses to replace one.
// unsupported are the errors of a file system that cannot do either.
type atomicRename struct {
	op                  string
	rename              func(fd int, from, to string, flags uint) error
	exchange, noReplace uint
	unsupported         []error
}

// swapWith puts the staged folder in place of the live one with r's
// exchange: one atomic step, after which the staging name holds the old
// set. Without a live folder it is a rename that refuses to replace
// anything. File systems that cannot exchange fall back to renameDance.
// It returns the old set's name ("" for none).
func swapWith(ctx context.Context, folder *os.Root, staged string, r atomicRename) (string, error) {
	d, err := folder.Open(".")
	if err != nil {
		return "", err
	}
	defer d.Close()
	fd := int(d.Fd())
	err = r.rename(fd, staged, liveName, r.exchange)
	if err == nil {
		return staged, nil
	}
	if errors.Is(err, unix.ENOENT) {
		err = r.rename(fd, staged, liveName, r.noReplace)
		if err == nil {
			return "", nil
		}
	}
	for _, u := range r.unsupported {
		if errors.Is(err, u) {
			return renameDance(ctx, folder, staged)
		}
	}
	return "", &os.LinkError{Op: r.op, Old: staged, New: liveName, Err: err}
}
