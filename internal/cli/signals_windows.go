//go:build windows

package cli

import (
	"os"
	"syscall"
)

// interruptSignals end a verb's context: Ctrl-C, and SIGTERM, which is
// how Go reports the console being closed, the user logging off or the
// machine shutting down; the verb then stops its hooks before Windows ends
// the process.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}
