//go:build !unix && !windows

package sync

import (
	"context"
	"os"
)

// lockTeam does not lock where the system has no file locks.
func lockTeam(context.Context, *os.Root) (func(), error) { return func() {}, nil }

// syncDir does nothing where folders cannot be flushed.
func syncDir(*os.Root, string) error { return nil }
