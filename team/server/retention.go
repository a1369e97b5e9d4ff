package server

import (
	"context"
	"log/slog"
	"time"

	"github.com/agenthooks/agenthooks/team/store"
)

// Retention's pace. Decisions past their team's retention are deleted
// in the background, a chunk at a time, each chunk one short write:
// another write (an upload, the fleet's flush) waits at most one chunk,
// never the whole pruning.
const (
	// pruneEvery is how often the pruner looks for decisions past their
	// retention; a change of a team's retention wakes it at once.
	pruneEvery = 10 * time.Minute
	// pruneChunkMax and pruneChunkMin bound a chunk's rows; the chunk
	// grows or shrinks so that one takes about pruneChunkTarget.
	pruneChunkMax    = 10_000
	pruneChunkMin    = 100
	pruneChunkStart  = 1000
	pruneChunkTarget = 50 * time.Millisecond
	// reclaimPages is how many free pages one step of SQLite's
	// incremental vacuum gives back (1 MiB at 4-KiB pages).
	reclaimPages = 256
)

// pruner deletes decisions past their retention in the background.
type pruner struct {
	st    store.Store
	log   *slog.Logger
	wake  chan struct{}
	chunk int
}

func newPruner(st store.Store, log *slog.Logger) *pruner {
	return &pruner{st: st, log: log, wake: make(chan struct{}, 1), chunk: pruneChunkStart}
}

// nudge asks for a pruning now: a team's retention changed.
func (p *pruner) nudge() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// run prunes at start, every pruneEvery and when nudged, until ctx ends;
// each round also drops the fleet view's expired listings.
func (p *pruner) run(ctx context.Context) {
	t := time.NewTicker(pruneEvery)
	defer t.Stop()
	for {
		if err := p.prune(ctx); err != nil && ctx.Err() == nil {
			p.log.Warn("could not prune the decisions past their retention; the next round tries again", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-p.wake:
		}
	}
}

// prune deletes chunk after chunk until none is left, then gives the
// freed space back, pausing after each step as long as it took, so that
// other writers have the database at least half the time.
func (p *pruner) prune(ctx context.Context) error {
	// The fleet view's listings past their time go first: a few rows.
	if _, err := p.st.DropListings(ctx, time.Now().Add(-store.ListingTTL)); err != nil {
		return err
	}
	total := 0
	var longest time.Duration
	start := time.Now()
	for {
		began := time.Now()
		n, err := p.st.PruneDecisions(ctx, p.chunk)
		total += n.Rows
		longest = max(longest, n.Held)
		if err != nil {
			return err
		}
		if n.Rows == 0 {
			break
		}
		p.adapt(n.Rows, n.Held)
		if err := pause(ctx, time.Since(began)); err != nil {
			return err
		}
	}
	deleted := time.Since(start)
	for {
		began := time.Now()
		more, err := p.st.ReclaimSpace(ctx, reclaimPages)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		if err := pause(ctx, time.Since(began)); err != nil {
			return err
		}
	}
	if total > 0 {
		p.log.Info("pruned decisions past their retention", "deleted", total, "s", deleted.Seconds(),
			"longest_write_ms", longest.Milliseconds(), "reclaim_s", (time.Since(start) - deleted).Seconds())
	}
	return nil
}

// adapt sizes the next chunk from how long this one of n rows held the
// database.
func (p *pruner) adapt(n int, took time.Duration) {
	switch {
	case took > 2*pruneChunkTarget:
		p.chunk = max(p.chunk/2, pruneChunkMin)
	case took < pruneChunkTarget/2 && n >= p.chunk:
		p.chunk = min(p.chunk*2, pruneChunkMax)
	}
}

// pause waits d (at least a few milliseconds), or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(max(d, 5*time.Millisecond)):
		return nil
	}
}
