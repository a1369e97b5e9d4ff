package teamsync

import (
	"context"
	"os"

	"golang.org/x/sys/unix"
)

// renameatxNp exchanges folders with RENAME_SWAP.
var renameatxNp = atomicRename{
	op: "renameatx_np",
	rename: func(fd int, from, to string, flags uint) error {
		return unix.RenameatxNp(fd, from, fd, to, uint32(flags))
	},
	exchange:    unix.RENAME_SWAP,
	noReplace:   unix.RENAME_EXCL,
	unsupported: []error{unix.EINVAL, unix.ENOTSUP},
}

// swap puts the staged folder in place of the live one with
// renameatx_np(RENAME_SWAP), as swapWith says.
func swap(ctx context.Context, folder *os.Root, staged string) (string, error) {
	return swapWith(ctx, folder, staged, renameatxNp)
}
