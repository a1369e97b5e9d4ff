package state

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/session"
)

func TestRetentionByAge(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Options{Retention: 24 * time.Hour})
	now := time.Now()
	var recs []audit.Record
	for i, age := range []time.Duration{48 * time.Hour, 25 * time.Hour, 23 * time.Hour, time.Minute} {
		r := testRecord(fmt.Sprint(i))
		r.Time = now.Add(-age)
		recs = append(recs, r)
	}
	if err := s.Write(ctx, recs); err != nil {
		t.Fatal(err)
	}
	n, err := s.Prune(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("Prune deleted %d records, want the 2 older than a day", n)
	}
	got, err := s.Records(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Command != "3" || got[1].Command != "2" {
		t.Errorf("kept %+v, want records 3 and 2", got)
	}
}

func TestRetentionOfSessions(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Options{Retention: time.Hour})
	for _, id := range []string{"idle", "active"} {
		if err := s.Update(ctx, id, func(sess *session.Session) { sess.AdditionalContext = id }); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.db.Exec(`UPDATE sessions SET updated_at = ? WHERE conversation_id = 'idle'`,
		time.Now().Add(-2*time.Hour).UnixNano()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get(ctx, "idle"); got.AdditionalContext != "" {
		t.Errorf("idle session kept: %+v", got)
	}
	if got, _ := s.Get(ctx, "active"); got.AdditionalContext != "active" {
		t.Errorf("active session pruned")
	}
}

func TestRetentionByCount(t *testing.T) {
	ctx := context.Background()
	// MaxRecords 10 prunes on every insert: exactly the newest 10 stay.
	s := openTest(t, Options{MaxRecords: 10})
	for i := range 25 {
		if err := s.Write(ctx, []audit.Record{testRecord(fmt.Sprint(i))}); err != nil {
			t.Fatal(err)
		}
		if n := count(t, s); n != min(i+1, 10) {
			t.Fatalf("after %d writes: %d records", i+1, n)
		}
	}
	got, err := s.Records(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range got {
		if want := fmt.Sprint(24 - i); e.Command != want {
			t.Errorf("record %d is %s, want %s", i, e.Command, want)
		}
	}
}

func TestRetentionByCountIsAmortised(t *testing.T) {
	ctx := context.Background()
	// MaxRecords 100 prunes every 10 inserts: never more than 110, and
	// Prune brings it to 100.
	s := openTest(t, Options{MaxRecords: 100})
	pruned := false
	for i := range 300 {
		batch := []audit.Record{testRecord(fmt.Sprint(i))}
		if i%7 == 0 { // batches straddle the pruning points too
			batch = append(batch, testRecord(fmt.Sprintf("%d+", i)))
		}
		if err := s.Write(ctx, batch); err != nil {
			t.Fatal(err)
		}
		n := count(t, s)
		if n > 110 {
			t.Fatalf("after %d writes: %d records, want at most 110", i+1, n)
		}
		if i > 100 && n < 100 {
			t.Fatalf("after %d writes: %d records, pruned below MaxRecords", i+1, n)
		}
		pruned = pruned || n < i+1
	}
	if !pruned {
		t.Fatal("never pruned")
	}
	if _, err := s.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s); n != 100 {
		t.Errorf("after Prune: %d records, want 100", n)
	}
	// Pruning never hands a seq out again.
	got, err := s.Records(ctx, Query{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	last, err := s.LastSeq(ctx)
	if err != nil || last != got[0].Seq || last < 300 {
		t.Errorf("LastSeq = %d, %v; newest seq %d", last, err, got[0].Seq)
	}
}
