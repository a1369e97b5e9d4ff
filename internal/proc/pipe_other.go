//go:build !linux

package proc

import "os"

// GrowPipe does nothing where pipes cannot be resized.
func GrowPipe(*os.File, int) {}
