package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestPruneDecisions: a shorter retention hides the older decisions at
// once; pruning deletes them a bounded chunk at a time, the newer ones
// stay, and the space is given back (SQLite, whose new files are in
// incremental auto-vacuum mode).
func TestPruneDecisions(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team := mustAuditTeam(t, s, "platform", 30)
		now := time.Now()
		const old, fresh = 1200, 10
		add := func(n int, age time.Duration, prefix string) {
			for i := 0; i < n; i += 500 {
				var batch []Decision
				for j := i; j < min(i+500, n); j++ {
					batch = append(batch, Decision{MachineID: "m1", RecordID: fmt.Sprintf("%s%d", prefix, j), AtMs: now.Add(-age).UnixMilli(),
						Step: "stop", Outcome: "deny", What: strings.Repeat("x", 2000)})
				}
				if got, err := s.AddDecisions(ctx, team.ID, batch); err != nil || got != len(batch) {
					t.Fatalf("added %d of %d: %v", got, len(batch), err)
				}
			}
		}
		add(old, 10*24*time.Hour, "old")
		add(fresh, time.Hour, "new")
		if p, err := s.PruneDecisions(ctx, 1000); err != nil || p.Rows != 0 {
			t.Fatalf("pruned %d within the retention: %v", p.Rows, err)
		}
		if _, err := s.SetTeamAudit(ctx, team.ID, true, 7); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Decisions(ctx, DecisionFilter{TeamID: team.ID, Limit: 1000}); err != nil || len(got) != fresh {
			t.Fatalf("after a shorter retention %d decisions are shown, want %d: %v", len(got), fresh, err)
		}
		chunks, total := 0, 0
		for {
			p, err := s.PruneDecisions(ctx, 500)
			if err != nil {
				t.Fatal(err)
			}
			n := p.Rows
			if n > 0 && p.Held <= 0 {
				t.Fatalf("a chunk of %d held the database for %v", n, p.Held)
			}
			if n > 500 {
				t.Fatalf("a chunk of 500 deleted %d", n)
			}
			if n == 0 {
				break
			}
			chunks++
			total += n
		}
		if total != old || chunks != 3 {
			t.Fatalf("pruned %d in %d chunks, want %d in 3", total, chunks, old)
		}
		if _, err := s.SetTeamAudit(ctx, team.ID, true, 30); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Decisions(ctx, DecisionFilter{TeamID: team.ID, Limit: 1000}); err != nil || len(got) != fresh {
			t.Fatalf("after pruning %d decisions are left, want %d: %v", len(got), fresh, err)
		}

		sq := s.(*sqlStore)
		more, _, err := s.ReclaimSpace(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if sq.d.name != "sqlite" {
			if more {
				t.Error("PostgreSQL reports space to reclaim: autovacuum's job")
			}
			return
		}
		var mode, free int
		if err := sq.db.QueryRowContext(ctx, `PRAGMA auto_vacuum`).Scan(&mode); err != nil || mode != sqliteIncrementalVacuum {
			t.Fatalf("a new SQLite file's auto_vacuum is %d, want incremental: %v", mode, err)
		}
		if !more {
			t.Fatal("no free pages after deleting 1200 rows of 2 KB")
		}
		for steps := 0; more; steps++ {
			if steps > 1000 {
				t.Fatal("reclaiming does not end")
			}
			if more, _, err = s.ReclaimSpace(ctx, 10); err != nil {
				t.Fatal(err)
			}
		}
		if err := sq.db.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&free); err != nil || free != 0 {
			t.Fatalf("%d pages still free: %v", free, err)
		}
	})
}
