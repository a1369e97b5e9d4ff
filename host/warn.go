package host

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// runWarnings are the warnings raised during one run: a host that serves
// many runs at once tells each caller its own.
type runWarnings struct {
	mu   sync.Mutex
	list []string
}

type runWarningsKey struct{}

func withRunWarnings(ctx context.Context) (context.Context, *runWarnings) {
	rw := &runWarnings{}
	return context.WithValue(ctx, runWarningsKey{}, rw), rw
}

func (rw *runWarnings) add(msg string) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if !slices.Contains(rw.list, msg) {
		rw.list = append(rw.list, msg)
	}
}

func (rw *runWarnings) take() []string {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	return slices.Clone(rw.list)
}

// warn records a warning of the run in ctx, and of the host.
func (h *Host) warn(ctx context.Context, format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	if rw, ok := ctx.Value(runWarningsKey{}).(*runWarnings); ok {
		rw.add(msg)
	}
	h.Warnf("%s", msg)
}

// OpenWarnings are the warnings raised while the host was opened (a
// state store or trust store it could not use): they hold for every run,
// so a caller shows them with each run's own (Reply.Warnings).
func (h *Host) OpenWarnings() []string {
	h.warnMu.Lock()
	defer h.warnMu.Unlock()
	return slices.Clone(h.warnings[:h.opened])
}
