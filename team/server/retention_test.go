package server

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// pruneWatch is a store that records the pruner's chunks.
type pruneWatch struct {
	store.Store
	mu      sync.Mutex
	limits  []int
	deleted int
}

func (p *pruneWatch) PruneDecisions(ctx context.Context, limit int) (store.Pruned, error) {
	n, err := p.Store.PruneDecisions(ctx, limit)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.limits = append(p.limits, limit)
	p.deleted += n.Rows
	return n, err
}

func (p *pruneWatch) total() (int, []int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.deleted, append([]int(nil), p.limits...)
}

// TestRetentionPrunesInTheBackground: a shorter retention set through
// the API makes the server prune at once, in chunks of at most 5,000,
// while uploads keep landing; what is within the retention stays.
func TestRetentionPrunesInTheBackground(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			var watch *pruneWatch
			e := start(t, b, func(c *Config) {
				watch = &pruneWatch{Store: c.Store}
				c.Store = watch
				// Uploads in a tight loop: the per-token rate is not what
				// this test measures.
				c.UploadRate = 1e6
			})
			ctx := context.Background()
			if _, err := e.store.SetTeamAudit(ctx, e.team.ID, true, 30); err != nil {
				t.Fatal(err)
			}
			const old = 1500
			now := time.Now()
			for i := 0; i < old; i += 500 {
				var batch []store.Decision
				for j := i; j < i+500; j++ {
					batch = append(batch, store.Decision{MachineID: "m1", RecordID: fmt.Sprint("old", j), AtMs: now.Add(-10 * 24 * time.Hour).UnixMilli(), Step: "stop"})
				}
				if _, err := e.store.AddDecisions(ctx, e.team.ID, batch); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := e.adminClient(e.admin, protocols[0]).SetTeamAudit(ctx, connect.NewRequest(&teamv1.SetTeamAuditRequest{
				TeamId: e.team.ID, Audit: true, AuditRetentionDays: 7})); err != nil {
				t.Fatal(err)
			}
			up := e.hooksClient(e.member, protocols[0])
			deadline := time.Now().Add(30 * time.Second)
			for i := 0; ; i++ {
				res, err := up.UploadDecisions(ctx, connect.NewRequest(&teamv1.UploadDecisionsRequest{Machine: &teamv1.Machine{Id: "m2"},
					Decisions: []*teamv1.Decision{{Id: fmt.Sprint("new", i), AtUnixMs: time.Now().UnixMilli(), Step: "stop", Outcome: "deny"}}}))
				if err != nil || res.Msg.Accepted != 1 {
					t.Fatalf("an upload while pruning: %v, %v", res, err)
				}
				if n, _ := watch.total(); n == old {
					break
				}
				if time.Now().After(deadline) {
					n, limits := watch.total()
					t.Fatalf("the pruner deleted %d of %d in 30 s (chunks %v)", n, old, limits)
				}
				time.Sleep(10 * time.Millisecond)
			}
			_, limits := watch.total()
			for _, l := range limits {
				if l > pruneChunkMax || l < pruneChunkMin {
					t.Fatalf("a chunk of %d rows, outside %d..%d", l, pruneChunkMin, pruneChunkMax)
				}
			}
			got, err := e.store.Decisions(ctx, store.DecisionFilter{TeamID: e.team.ID, MachineID: "m2", Limit: 1000})
			if err != nil || len(got) == 0 {
				t.Fatalf("the uploads made while pruning: %d, %v", len(got), err)
			}
		})
	}
}

// TestPruneChunkAdapts: a pruner starts with a modest chunk; a slow
// chunk shrinks the next in proportion to the time it took over the
// target, a quick full one at most doubles it, within bounds.
func TestPruneChunkAdapts(t *testing.T) {
	p := newPruner(nil, nil)
	if p.chunk != pruneChunkStart {
		t.Fatalf("a new pruner starts at %d rows, want %d", p.chunk, pruneChunkStart)
	}
	chunk := pruneChunkMax
	for _, c := range []struct {
		n    int
		held time.Duration
		want int
	}{
		{5000, 100 * time.Millisecond, 1250},
		{1250, 50 * time.Millisecond, 625},
		{625, 20 * time.Millisecond, 625},
		{625, 10 * time.Millisecond, 1250},
		{100, 5 * time.Millisecond, 1250}, // the last, short chunk says nothing
		{1250, 8 * time.Millisecond, 2500},
		{2500, 1 * time.Millisecond, 5000},
		{5000, 1 * time.Millisecond, 5000},
		{5000, time.Second, 125},
	} {
		chunk = adapt(chunk, c.n, c.held, pruneChunkMin, pruneChunkMax)
		if chunk != c.want {
			t.Fatalf("after %d rows held %v the chunk is %d, want %d", c.n, c.held, chunk, c.want)
		}
	}
	for range 5 {
		chunk = adapt(chunk, chunk, 10*time.Second, pruneChunkMin, pruneChunkMax)
	}
	if chunk != pruneChunkMin {
		t.Fatalf("the chunk shrank to %d, want %d", chunk, pruneChunkMin)
	}
}
