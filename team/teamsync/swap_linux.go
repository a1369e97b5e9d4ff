package teamsync

import (
	"context"
	"os"

	"golang.org/x/sys/unix"
)

// renameat2 exchanges folders with RENAME_EXCHANGE.
var renameat2 = atomicRename{
	op: "renameat2",
	rename: func(fd int, from, to string, flags uint) error {
		return unix.Renameat2(fd, from, fd, to, flags)
	},
	exchange:    unix.RENAME_EXCHANGE,
	noReplace:   unix.RENAME_NOREPLACE,
	unsupported: []error{unix.EINVAL, unix.ENOSYS, unix.EOPNOTSUPP},
}

// swap puts the staged folder in place of the live one with
// renameat2(RENAME_EXCHANGE), as swapWith says.
func swap(ctx context.Context, folder *os.Root, staged string) (string, error) {
	return swapWith(ctx, folder, staged, renameat2)
}
