package host

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

// maxPending bounds the runs kept for a host that never flushes.
const maxPending = 1000

// pending is the engine's sink: it keeps each run's records in memory so
// that writing them, which can wait on a busy database, happens after the
// answer is given (Flush).
type pending struct {
	mu      sync.Mutex
	runs    [][]audit.Record
	dropped int
}

// Write implements audit.Sink; it never blocks on I/O.
func (p *pending) Write(_ context.Context, recs []audit.Record) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.runs) >= maxPending {
		p.runs = p.runs[1:]
		p.dropped++
	}
	p.runs = append(p.runs, recs)
	return nil
}

// take returns the runs kept so far and how many were dropped, and
// forgets them.
func (p *pending) take() ([][]audit.Record, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	runs, dropped := p.runs, p.dropped
	p.runs, p.dropped = nil, 0
	return runs, dropped
}

// warningRecords turns the warnings not yet logged into records, so the
// log shows why a run degraded.
func (h *Host) warningRecords() []audit.Record {
	h.warnMu.Lock()
	ws := h.warnings[h.logged:]
	h.logged = len(h.warnings)
	h.warnMu.Unlock()
	now := time.Now()
	recs := make([]audit.Record, len(ws))
	for i, w := range ws {
		recs[i] = audit.Record{ID: audit.NewID(now), Time: now, Step: "agenthooks", Command: "agenthooks",
			Type: "warning", Source: "agenthooks", Stderr: w, Outcome: "warning", Decision: "none", ExitCode: -1}
	}
	return recs
}

// logger turns the engine's warnings (a session it could not read or
// update, a trust store it could not reload) into host warnings.
func (h *Host) logger() *slog.Logger { return slog.New(warnHandler{h: h}) }

type warnHandler struct {
	h     *Host
	attrs []slog.Attr
}

func (w warnHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (w warnHandler) Handle(ctx context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	add := func(a slog.Attr) bool {
		fmt.Fprintf(&b, "; %s: %v", a.Key, a.Value)
		return true
	}
	for _, a := range w.attrs {
		add(a)
	}
	r.Attrs(add)
	w.h.warn(ctx, "%s", b.String())
	return nil
}

func (w warnHandler) WithAttrs(as []slog.Attr) slog.Handler {
	w.attrs = append(w.attrs[:len(w.attrs):len(w.attrs)], as...)
	return w
}

func (w warnHandler) WithGroup(string) slog.Handler { return w }
