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
	// pruneChunkMax and pruneChunkMin bound a chunk's rows; the chunk is
	// sized by how long the last one held the database, so that one
	// takes about pruneChunkTarget: a chunk's rows cost more on a larger
	// table, a colder cache or a busier machine.
	pruneChunkMax    = 5000
	pruneChunkMin    = 10
	pruneChunkStart  = 200
	pruneChunkTarget = 25 * time.Millisecond
	// reclaimPages is how many free pages one step of SQLite's
	// incremental vacuum gives back at first (1 MiB at 4-KiB pages);
	// the step is sized as the chunks are, from reclaimPagesMin.
	reclaimPages    = 256
	reclaimPagesMin = 16
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
		p.chunk = adapt(p.chunk, n.Rows, n.Held, pruneChunkMin, pruneChunkMax)
		if err := pause(ctx, time.Since(began)); err != nil {
			return err
		}
	}
	deleted := time.Since(start)
	pages := reclaimPages
	for {
		began := time.Now()
		more, held, err := p.st.ReclaimSpace(ctx, pages)
		longest = max(longest, held)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		pages = adapt(pages, pages, held, reclaimPagesMin, reclaimPages)
		if err := pause(ctx, time.Since(began)); err != nil {
			return err
		}
	}
	if total > 0 {
		p.log.Info("pruned decisions past their retention", "deleted", total, "s", deleted.Seconds(),
			"longest_write_ms", float64(longest.Microseconds())/1000, "reclaim_s", (time.Since(start) - deleted).Seconds())
	}
	return nil
}

// adapt sizes the next step from how long this one, of n of size,
// held the database: in proportion to pruneChunkTarget at once when it
// held longer, growing at most twice when shorter (and only after a full
// one: the last, short step says nothing), within least and most.
func adapt(size, n int, held time.Duration, least, most int) int {
	switch {
	case held > pruneChunkTarget:
		size = int(float64(size) * float64(pruneChunkTarget) / float64(held))
	case held < pruneChunkTarget/2 && n >= size:
		size = min(2*size, int(float64(size)*float64(pruneChunkTarget)/float64(max(held, time.Microsecond))))
	}
	return min(max(size, least), most)
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
