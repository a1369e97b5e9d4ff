package state

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agenthooks/agenthooks/audit"
)

// runRecords is one run of n hooks as the engine hands it to the sink:
// every record carries the same payload bytes.
func runRecords(n int, payload []byte) []audit.Record {
	recs := make([]audit.Record, n)
	for i := range recs {
		recs[i] = testRecord(fmt.Sprintf("hook%d", i))
		recs[i].Step = "beforeReadFile"
		recs[i].Index = i
		recs[i].Payload = payload
	}
	return recs
}

func countRows(t testing.TB, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPayloadStoredOncePerRun(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []Redaction{RedactSecrets, RedactKeep, RedactTruncate} {
		t.Run(string(mode), func(t *testing.T) {
			s := openTest(t, Options{Redact: mode})
			payload := []byte(`{"file_path":"/p/a.txt","content":"hello"}`)
			if err := s.Write(ctx, runRecords(3, payload)); err != nil {
				t.Fatal(err)
			}
			// A copy of the same bytes is the same payload too.
			if err := s.Write(ctx, runRecords(2, append([]byte(nil), payload...))); err != nil {
				t.Fatal(err)
			}
			if n := countRows(t, s, "payloads"); n != 2 {
				t.Errorf("%d payload rows for 2 runs, want 2", n)
			}
			got, err := s.Records(ctx, Query{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 5 {
				t.Fatalf("%d records, want 5", len(got))
			}
			for _, e := range got {
				if string(e.Payload) != string(payload) {
					t.Errorf("record %s payload %s, want %s", e.Command, e.Payload, payload)
				}
			}
		})
	}
}

func TestDistinctPayloadsInOneWrite(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Options{})
	recs := runRecords(4, []byte(`{"n":1}`))
	recs[1].Payload = json.RawMessage(`{"n":2}`)
	recs[3].Payload = nil
	if err := s.Write(ctx, recs); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, s, "payloads"); n != 2 {
		t.Errorf("%d payload rows, want 2", n)
	}
	got, err := s.Records(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"hook0": `{"n":1}`, "hook1": `{"n":2}`, "hook2": `{"n":1}`, "hook3": ``}
	for _, e := range got {
		if string(e.Payload) != want[e.Command] {
			t.Errorf("%s: payload %s, want %s", e.Command, e.Payload, want[e.Command])
		}
	}
}

func TestPayloadGoesWithItsLastRecord(t *testing.T) {
	ctx := context.Background()
	// MaxRecords 4: each prune keeps 4 records, so a run of 3 is pruned
	// in part first, and its payload must stay while a record uses it.
	s := openTest(t, Options{MaxRecords: 4})
	for i := range 4 {
		if err := s.Write(ctx, runRecords(3, fmt.Appendf(nil, `{"run":%d}`, i))); err != nil {
			t.Fatal(err)
		}
		got, err := s.Records(ctx, Query{})
		if err != nil {
			t.Fatal(err)
		}
		runs := map[string]bool{}
		for _, e := range got {
			if len(e.Payload) == 0 {
				t.Errorf("record %d lost its payload", e.Seq)
			}
			runs[string(e.Payload)] = true
		}
		if n := countRows(t, s, "payloads"); n != len(runs) {
			t.Errorf("after run %d: %d payload rows for %d runs in the log", i, n, len(runs))
		}
	}
	var size int64
	if err := s.db.QueryRow(`SELECT (SELECT COALESCE(SUM(bytes), 0) FROM records) + (SELECT COALESCE(SUM(bytes), 0) FROM payloads)`).Scan(&size); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Size(ctx); err != nil || got != size {
		t.Errorf("Size = %d, %v; the rows add up to %d", got, err, size)
	}
}
