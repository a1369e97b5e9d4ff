package state

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigRead is a beforeReadFile payload of about n bytes: a file's content.
func bigRead(n int) []byte {
	b, _ := json.Marshal(map[string]any{
		"conversation_id": "c", "hook_event_name": "beforeReadFile", "file_path": "/p/big.log",
		"content": strings.Repeat("log line 0123456789 abcdefghijklmnopqrstuvwxyz\n", n/47),
	})
	return b
}

// fileSizes is the size of state.db and of its WAL in dir.
func fileSizes(t *testing.T, dir string) (db, wal int64) {
	t.Helper()
	fi, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	db = fi.Size()
	if fi, err := os.Stat(filepath.Join(dir, FileName+"-wal")); err == nil {
		wal = fi.Size()
	}
	return db, wal
}

// TestBigReadsStaySmall: 45 runs of three hooks each reading a 10 MB file
// used to add over 477 MB to the log. With the default caps the log's
// content stays under 1 MiB, and on disk, database and WAL together, under
// 6 MiB: the WAL holds up to about 4 MiB of recent writes between
// checkpoints (SQLite's default of 1000 pages), whatever their size.
func TestBigReadsStaySmall(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, Options{Dir: dir})
	payload := bigRead(10 << 20)
	for range 45 {
		if err := s.Write(ctx, runRecords(3, payload)); err != nil {
			t.Fatal(err)
		}
	}
	db, wal := fileSizes(t, dir)
	t.Logf("state.db %d bytes, -wal %d bytes", db, wal)
	if db+wal > 6<<20 {
		t.Errorf("state.db %d + wal %d bytes after 45 runs of a 10 MB read, want under 6 MiB", db, wal)
	}
	if size, err := s.Size(ctx); err != nil || size > 1<<20 {
		t.Errorf("log size %d (%v) after 45 runs of a 10 MB read, want under 1 MiB", size, err)
	}
	if n := count(t, s); n != 135 {
		t.Errorf("%d records, want 135", n)
	}
	got, err := s.Records(ctx, Query{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(got[0].Payload, &p); err != nil || p["file_path"] != "/p/big.log" ||
		!strings.Contains(p["content"].(string), "…[cut ") {
		t.Errorf("stored payload %.200s (%v): want the file path and the content cut", got[0].Payload, err)
	}
}

// TestMaxBytesBoundsTheStore: kept whole (AGENTHOOKS_REDACT=keep), 4 MB
// reads fill a 16 MiB bound; the oldest runs go, whole, and the database
// stays within the bound plus one run, and the WAL within its limit.
func TestMaxBytesBoundsTheStore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	const maxBytes = 16 << 20
	s := openTest(t, Options{Dir: dir, Redact: RedactKeep, MaxBytes: maxBytes})
	payload := bigRead(4 << 20)
	for i := range 12 {
		if err := s.Write(ctx, runRecords(2, payload)); err != nil {
			t.Fatal(err)
		}
		size, err := s.Size(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if size > maxBytes {
			t.Fatalf("after run %d: log size %d, over the bound %d", i, size, maxBytes)
		}
		// Runs are pruned whole: an even number of records, each with
		// its payload.
		if n := count(t, s); n%2 != 0 || n < 2 {
			t.Fatalf("after run %d: %d records", i, n)
		}
	}
	got, err := s.Records(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range got {
		if string(e.Payload) != string(payload) {
			t.Fatalf("record %d: payload of %d bytes, want the %d kept whole", e.Seq, len(e.Payload), len(payload))
		}
	}
	if len(got) >= 24 || len(got) < 4 {
		t.Errorf("%d records kept of 24", len(got))
	}
	db, wal := fileSizes(t, dir)
	t.Logf("state.db %d bytes, -wal %d bytes, %d records", db, wal, len(got))
	if db > maxBytes+int64(len(payload))+1<<20 {
		t.Errorf("state.db is %d bytes, want at most the bound %d plus a run", db, maxBytes)
	}
}

// TestOneRunBiggerThanTheBound is cut to fit rather than emptying the log.
func TestOneRunBiggerThanTheBound(t *testing.T) {
	ctx := context.Background()
	const maxBytes = 1 << 20
	s := openTest(t, Options{Redact: RedactKeep, MaxBytes: maxBytes})
	if err := s.Write(ctx, runRecords(1, []byte(`{"small":true}`))); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, runRecords(2, bigRead(2<<20))); err != nil {
		t.Fatal(err)
	}
	size, err := s.Size(ctx)
	if err != nil || size > maxBytes {
		t.Fatalf("Size = %d, %v; want at most %d", size, err, maxBytes)
	}
	if n := count(t, s); n != 3 {
		t.Errorf("%d records, want the small run kept too", n)
	}
}
