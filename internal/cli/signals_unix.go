//go:build unix

package cli

import (
	"os"
	"syscall"
)

// interruptSignals end a verb's context: hooks run in process groups of
// their own, so the verb must hear TERM and HUP too and stop them, or they
// would outlive it.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
