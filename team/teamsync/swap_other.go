//go:build !linux && !darwin

package teamsync

import (
	"context"
	"os"
)

// swap puts the staged folder in place of the live one. Without an
// atomic exchange of folders (Windows has none) that is renameDance,
// whose window is documented there.
func swap(ctx context.Context, folder *os.Root, staged string) (string, error) {
	return renameDance(ctx, folder, staged)
}
