//go:build !linux && !darwin

package sync

import (
	"context"
	"os"
)

// swap puts the staged folder in place of the live one. Without an
// atomic exchange of folders (Windows has none) that is renameDance,
// whose window is documented there.
func swap(ctx context.Context, team *os.Root, staged string) (string, error) {
	return renameDance(ctx, team, staged)
}
