package store

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
)

// TestConcurrentChanges has writers change one team's hooks at once,
// through two stores on the same database (two server replicas, or a
// server and a bootstrap command): every change gets its own revision,
// the revisions have no gaps, and each has its history row.
func TestConcurrentChanges(t *testing.T) {
	const writers, perWriter = 4, 15
	eachURL(t, func(t *testing.T, url string) {
		stores := []Store{openT(t, url, Options{}), openT(t, url, Options{})}
		ctx := context.Background()
		team := mustTeam(t, stores[0], "platform")
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for w := range writers {
			wg.Go(func() {
				s := stores[w%len(stores)]
				for i := range perWriter {
					h, _, err := s.CreateHook(ctx, fmt.Sprint("w", w), team.ID, sampleHook(fmt.Sprintf("w%d-%d.sh", w, i)))
					if err == nil && i%2 == 0 {
						_, _, err = s.SetHookActive(ctx, "x", h.ID, false)
					}
					if err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		changes := writers * (perWriter + (perWriter+1)/2)
		snap, err := stores[1].Hooks(ctx, team.ID, 0)
		if err != nil || snap.Team.Revision != int64(changes) || len(snap.Hooks) != writers*perWriter {
			t.Fatalf("after %d changes: revision %d, %d hooks, %v", changes, snap.Team.Revision, len(snap.Hooks), err)
		}
		hist, err := stores[0].History(ctx, HistoryFilter{TeamID: team.ID, Limit: MaxHistoryLimit})
		if err != nil {
			t.Fatal(err)
		}
		var revs []int
		for _, c := range hist {
			revs = append(revs, int(c.Revision))
		}
		sort.Ints(revs)
		for i, r := range revs {
			if r != i+1 {
				t.Fatalf("history revisions %v: want 1..%d, each once", revs, changes)
			}
		}
		if len(revs) != changes {
			t.Fatalf("%d history rows, want %d", len(revs), changes)
		}
	})
}
