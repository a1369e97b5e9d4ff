//go:build windows

package cli

import "os"

// interruptSignals end a verb's context.
var interruptSignals = []os.Signal{os.Interrupt}
