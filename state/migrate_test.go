package state

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

func TestMigrateFreshAndReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := userVersion(ctx, s.db); err != nil || v != len(migrations) {
		t.Fatalf("user_version = %d, %v; want %d", v, err, len(migrations))
	}
	if err := s.Write(ctx, []audit.Record{testRecord("kept")}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Opening again migrates nothing and keeps the data.
	for range 2 {
		s := openTest(t, Options{Dir: dir})
		if v, _ := userVersion(ctx, s.db); v != len(migrations) {
			t.Errorf("user_version after reopen = %d", v)
		}
		if n := count(t, s); n != 1 {
			t.Errorf("%d records after reopen, want 1", n)
		}
	}
}

func TestMigrateFromEveryVersion(t *testing.T) {
	// A database left at any earlier version is brought up to date.
	ctx := context.Background()
	for from := range len(migrations) {
		dir := t.TempDir()
		raw := rawDB(t, dir)
		for v := range from {
			if _, err := raw.Exec(migrations[v]); err != nil {
				t.Fatal(err)
			}
		}
		setVersion(t, raw, from)
		s := openTest(t, Options{Dir: dir})
		if v, _ := userVersion(ctx, s.db); v != len(migrations) {
			t.Errorf("from %d: user_version = %d, want %d", from, v, len(migrations))
		}
		if err := s.Write(ctx, []audit.Record{testRecord("x")}); err != nil {
			t.Errorf("from %d: %v", from, err)
		}
	}
}

func TestFutureVersionIsAnError(t *testing.T) {
	dir := t.TempDir()
	setVersion(t, rawDB(t, dir), len(migrations)+1)
	s, err := Open(context.Background(), Options{Dir: dir})
	if err == nil {
		s.Close()
		t.Fatal("Open of a database from a newer agenthooks succeeded")
	}
	for _, want := range []string{"newer than this agenthooks knows", "upgrade agenthooks", "AGENTHOOKS_STATE_DIR", FileName} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// rawDB opens state.db in dir without the store, closed at the end of the
// test.
func rawDB(t *testing.T, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func setVersion(t *testing.T, db *sql.DB, v int) {
	t.Helper()
	if _, err := db.Exec("PRAGMA user_version = " + strconv.Itoa(v)); err != nil {
		t.Fatal(err)
	}
}

// TestMigrateKeepsInlinePayloads: records written before the payloads
// table keep their payload, count in the log's size, and are pruned as
// the new ones are.
func TestMigrateKeepsInlinePayloads(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	raw := rawDB(t, dir)
	if _, err := raw.Exec(migrations[0]); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := raw.Exec(`INSERT INTO records (id, time_ns, step, conversation_id, command, type, source, file,
			hook_index, payload, response, duration_ms, exit_code, stderr, failure, outcome, decision)
			VALUES (?, ?, 'stop', 'c', ?, 'command', 'user', '/h.json', 0, ?, '{}', 1, 0, '', '', 'none', 'none')`,
			"old"+strconv.Itoa(i), time.Now().UnixNano(), "old"+strconv.Itoa(i), []byte(`{"old":`+strconv.Itoa(i)+`}`)); err != nil {
			t.Fatal(err)
		}
	}
	setVersion(t, raw, 1)

	s := openTest(t, Options{Dir: dir, MaxRecords: 4})
	got, err := s.Records(ctx, Query{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if string(got[0].Payload) != `{"old":2}` || string(got[0].Response) != `{}` {
		t.Errorf("old record reads back with payload %s, response %s", got[0].Payload, got[0].Response)
	}
	size, err := s.Size(ctx)
	if err != nil || size < 3*recordOverhead {
		t.Errorf("Size after migration = %d, %v; want the old records counted", size, err)
	}
	if err := s.Write(ctx, runRecords(2, []byte(`{"new":1}`))); err != nil {
		t.Fatal(err)
	}
	if got := commands(t, s); strings.Join(got, " ") != "old1 old2 hook0 hook1" {
		t.Errorf("records %v after a prune to 4", got)
	}
	var sum int64
	if err := s.db.QueryRow(`SELECT (SELECT SUM(bytes) FROM records) + (SELECT SUM(bytes) FROM payloads)`).Scan(&sum); err != nil {
		t.Fatal(err)
	}
	if size, _ := s.Size(ctx); size != sum {
		t.Errorf("Size %d, rows add up to %d", size, sum)
	}
}
