package state

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

// seedQuery writes records 0..7 (Command "0".."7"), one hour apart ending
// now, with these fields.
func seedQuery(t *testing.T, s *Store) time.Time {
	t.Helper()
	now := time.Now()
	rows := []struct{ step, source, outcome, failure, conv string }{
		{"beforeShellExecution", "user", "allow", "", "c1"},
		{"beforeShellExecution", "project", "deny", "", "c1"},
		{"beforeReadFile", "user", "failed", "timeout", "c2"},
		{"stop", "enterprise", "none", "", "c2"},
		{"beforeShellExecution", "user", "fail-closed", "exit_status", "c1"},
		{"beforeReadFile", "team", "allow", "", ""},
		{"beforeShellExecution", "user", "ask", "", "c3"},
		{"stop", "user", "continue", "", "c3"},
	}
	var recs []audit.Record
	for i, r := range rows {
		rec := testRecord(fmt.Sprint(i))
		rec.Step, rec.Source, rec.Outcome, rec.Failure, rec.ConversationID = r.step, r.source, r.outcome, r.failure, r.conv
		rec.Time = now.Add(time.Duration(i-len(rows)+1) * time.Hour)
		recs = append(recs, rec)
	}
	// Two writes, so that seq order is also write order.
	if err := s.Write(context.Background(), recs[:3]); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(context.Background(), recs[3:]); err != nil {
		t.Fatal(err)
	}
	return now
}

func TestRecordsFiltersAndOrder(t *testing.T) {
	s := openTest(t, Options{})
	now := seedQuery(t, s)
	tests := []struct {
		name string
		q    Query
		want []string // Commands, in order
	}{
		{"all, newest first", Query{}, []string{"7", "6", "5", "4", "3", "2", "1", "0"}},
		{"limit", Query{Limit: 3}, []string{"7", "6", "5"}},
		{"step", Query{Step: "beforeShellExecution"}, []string{"6", "4", "1", "0"}},
		{"source", Query{Source: "user"}, []string{"7", "6", "4", "2", "0"}},
		{"outcome", Query{Outcome: "allow"}, []string{"5", "0"}},
		{"failure kind", Query{Failure: "timeout"}, []string{"2"}},
		{"any failure", Query{Failure: FailureAny}, []string{"4", "2"}},
		{"conversation", Query{ConversationID: "c2"}, []string{"3", "2"}},
		{"combined", Query{Step: "beforeShellExecution", Source: "user", ConversationID: "c1"}, []string{"4", "0"}},
		{"combined and limit", Query{Source: "user", Limit: 2}, []string{"7", "6"}},
		{"no match", Query{Step: "sessionStart"}, nil},
		// Record i is at now-(7-i)h.
		{"since", Query{Since: now.Add(-2*time.Hour - time.Minute)}, []string{"7", "6", "5"}},
		{"until", Query{Until: now.Add(-5*time.Hour + time.Minute)}, []string{"2", "1", "0"}},
		{"since and until", Query{Since: now.Add(-4*time.Hour - time.Minute), Until: now.Add(-2*time.Hour - time.Minute)}, []string{"4", "3"}},
		{"after seq, oldest first", Query{AfterSeq: 5}, []string{"5", "6", "7"}},
		{"after seq with filter", Query{AfterSeq: 1, Source: "user", Limit: 2}, []string{"2", "4"}},
		{"after the last", Query{AfterSeq: 8}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Records(context.Background(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			var cmds []string
			for _, e := range got {
				cmds = append(cmds, e.Command)
			}
			if !slices.Equal(cmds, tt.want) {
				t.Errorf("Records(%+v) = %v, want %v", tt.q, cmds, tt.want)
			}
		})
	}
}

func TestSinceInclusiveUntilExclusive(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Options{})
	seedQuery(t, s)
	all, err := s.Records(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	at := all[2].Time // record 5's exact time
	since, err := s.Records(ctx, Query{Since: at})
	if err != nil || len(since) != 3 || since[2].Command != "5" {
		t.Errorf("Since its time: %d records (%v), want 7, 6, 5", len(since), err)
	}
	until, err := s.Records(ctx, Query{Until: at})
	if err != nil || len(until) != 5 || until[0].Command != "4" {
		t.Errorf("Until its time: %d records (%v), want 4 down to 0", len(until), err)
	}
}

func TestSeqMatchesWriteOrder(t *testing.T) {
	s := openTest(t, Options{})
	seedQuery(t, s)
	got, err := s.Records(context.Background(), Query{AfterSeq: 0})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range got {
		if want := int64(len(got) - i); e.Seq != want {
			t.Errorf("record %s has seq %d, want %d", e.Command, e.Seq, want)
		}
	}
	if last, err := s.LastSeq(context.Background()); err != nil || last != 8 {
		t.Errorf("LastSeq = %d, %v; want 8", last, err)
	}
}

func TestLastSeqEmpty(t *testing.T) {
	s := openTest(t, Options{})
	if last, err := s.LastSeq(context.Background()); err != nil || last != 0 {
		t.Errorf("LastSeq of an empty log = %d, %v", last, err)
	}
}
