//go:build !linux

package proc

import "os"

// awaitExit returns at once: the Wait that follows blocks until p exits.
func awaitExit(*os.Process) {}
