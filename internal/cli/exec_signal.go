package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/agenthooks/agenthooks/internal/proc"
)

// execNotify starts catching the signals exec passes on to its command
// (proc.ForwardedSignals, per OS). One channel serves the whole run: while hooks
// run a signal cancels them, while the command runs it goes to the
// command, so exec itself never dies of a signal and leaves the command
// behind.
func execNotify() chan os.Signal {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, proc.ForwardedSignals...)
	return sigs
}

func execStopNotify(sigs chan os.Signal) { signal.Stop(sigs) }

// execWatch returns a context that ends when a signal arrives, for a phase
// in which exec runs hooks. stop ends the watch and returns the signal
// that ended the context, or nil.
func execWatch(parent context.Context, sigs <-chan os.Signal) (ctx context.Context, stop func() os.Signal) {
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	got := make(chan os.Signal, 1)
	go func() {
		select {
		case s := <-sigs:
			got <- s
			cancel()
		case <-done:
			got <- nil
		}
	}()
	return ctx, func() os.Signal {
		close(done)
		s := <-got
		cancel()
		return s
	}
}

// execSignalCode is the exit status of a process killed by sig: 128+N,
// as shells report it.
func execSignalCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok && s > 0 && s < 128 {
		return 128 + int(s)
	}
	return 128 + 2 // SIGINT: the signal a user sends
}
