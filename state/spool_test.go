package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

// holdWriteLock takes the database's write lock in dir from a connection
// of its own, as another process's long write would, until the returned
// function is called (or the test ends).
func holdWriteLock(t *testing.T, dir string) (release func()) {
	t.Helper()
	unlock, err := lockDatabase(dir)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			if err := unlock(); err != nil {
				t.Error(err)
			}
		})
	}
	t.Cleanup(release)
	return release
}

// lockDatabase begins an immediate transaction on the database in dir,
// waiting for other writers if need be, and returns what ends it.
func lockDatabase(dir string) (unlock func() error, err error) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", filepath.Join(dir, FileName)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err == nil {
		_, err = conn.ExecContext(ctx, "BEGIN IMMEDIATE")
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return func() error {
		_, err := conn.ExecContext(ctx, "ROLLBACK")
		return errors.Join(err, conn.Close(), db.Close())
	}, nil
}

// commands are the stored records' commands, oldest first.
func commands(t *testing.T, s *Store) []string {
	t.Helper()
	got, err := s.Records(context.Background(), Query{})
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, e := range slices.Backward(got) {
		cmds = append(cmds, e.Command)
	}
	return cmds
}

func TestLockedDatabaseSpools(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, Options{Dir: dir, LogWait: DefaultLogWait})
	release := holdWriteLock(t, dir)

	start := time.Now()
	first := testRecord("while-locked")
	first.Payload = []byte(`{"command":"TOKEN=abc123 deploy"}`)
	if err := s.Write(ctx, []audit.Record{first}); err != nil {
		t.Fatalf("Write with the database locked: %v", err)
	}
	// It did not wait out BusyTimeout (10 s): it spooled.
	if took := time.Since(start); took > BusyTimeout/4 {
		t.Errorf("Write took %v with the database locked", took)
	} else {
		t.Logf("Write returned after %v", took)
	}
	if got := commands(t, s); len(got) != 0 {
		t.Fatalf("records %v in the database while it was locked", got)
	}
	spool := filepath.Join(dir, SpoolName)
	fi, err := os.Stat(spool)
	if err != nil {
		t.Fatalf("no spool file: %v", err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("spool mode %v, want 0600", fi.Mode().Perm())
	}
	// The spool holds the records redacted, as the database would.
	data, err := os.ReadFile(spool)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "abc123") || !strings.Contains(string(data), "while-locked") {
		t.Errorf("spool content: %s", data)
	}

	release()
	if err := s.Write(ctx, []audit.Record{testRecord("after")}); err != nil {
		t.Fatal(err)
	}
	if got := commands(t, s); strings.Join(got, " ") != "while-locked after" {
		t.Errorf("records %v, want the spooled one, then the new one", got)
	}
	if _, err := os.Stat(spool); !os.IsNotExist(err) {
		t.Errorf("spool still there after it was stored: %v", err)
	}
	got, err := s.Records(ctx, Query{AfterSeq: 0})
	if err != nil {
		t.Fatal(err)
	}
	if string(got[1].Payload) != `{"command":"TOKEN=[REDACTED:secret-value] deploy"}` {
		t.Errorf("spooled payload stored as %s", got[1].Payload)
	}
}

func TestOpenIngestsTheSpool(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, Options{Dir: dir, LogWait: 20 * time.Millisecond})
	release := holdWriteLock(t, dir)
	for i := range 3 {
		if err := s.Write(ctx, runRecords(2, fmt.Appendf(nil, `{"run":%d}`, i))); err != nil {
			t.Fatal(err)
		}
	}
	// Opening while the lock is still held does not wait for it either.
	other := openTest(t, Options{Dir: dir})
	if n := count(t, other); n != 0 {
		t.Fatalf("%d records while locked", n)
	}
	release()
	reopened := openTest(t, Options{Dir: dir})
	if n := count(t, reopened); n != 6 {
		t.Errorf("%d records after Open ingested the spool, want 6", n)
	}
	if n := countRows(t, reopened, "payloads"); n != 3 {
		t.Errorf("%d payloads, want one per run", n)
	}
}

func TestSpoolIngestedOnce(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, Options{Dir: dir})
	r := s.opts.prepare([]audit.Record{testRecord("spooled")}, time.Now())
	if err := s.spool(r); err != nil {
		t.Fatal(err)
	}
	spool := filepath.Join(dir, SpoolName)
	data, err := os.ReadFile(spool)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ingest(ctx); err != nil {
		t.Fatal(err)
	}
	// As if the process had died after the commit, before removing the
	// spool; with a line cut short by a crash in it too.
	if err := os.WriteFile(spool, append(data, `{"records":[{"id":"x`...), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, []audit.Record{testRecord("next")}); err != nil {
		t.Fatal(err)
	}
	if got := commands(t, s); strings.Join(got, " ") != "spooled next" {
		t.Errorf("records %v, want spooled once, then next", got)
	}
}

func TestSpoolIsBounded(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, Options{Dir: dir, Redact: RedactKeep})
	// Runs of about 1 MiB: the spool keeps the newest that fit.
	for i := range 12 {
		recs := runRecords(1, bigRead(1<<20))
		recs[0].Command = fmt.Sprint(i)
		if err := s.spool(s.opts.prepare(recs, time.Now())); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(filepath.Join(dir, SpoolName))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > SpoolMaxBytes {
			t.Fatalf("spool of %d bytes, over %d", fi.Size(), SpoolMaxBytes)
		}
	}
	if err := s.ingest(ctx); err != nil {
		t.Fatal(err)
	}
	got := commands(t, s)
	if len(got) < 5 || len(got) >= 12 || got[len(got)-1] != "11" {
		t.Errorf("kept %v: want the newest runs, up to 8 MiB", got)
	}
	// A run bigger than the whole spool is refused.
	if err := s.spool(s.opts.prepare(runRecords(1, bigRead(SpoolMaxBytes+1)), time.Now())); err == nil {
		t.Error("a run bigger than the spool was spooled")
	}
}

func TestLockedAndUnspoolableIsAnError(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, Options{Dir: dir, LogWait: 20 * time.Millisecond})
	// A directory where the spool file should be: it cannot be written.
	if err := os.Mkdir(filepath.Join(dir, SpoolName), 0o700); err != nil {
		t.Fatal(err)
	}
	holdWriteLock(t, dir)
	err := s.Write(ctx, []audit.Record{testRecord("lost")})
	if err == nil || !strings.Contains(err.Error(), "dropped") || !strings.Contains(err.Error(), "spool") {
		t.Errorf("Write = %v, want an error saying the records are dropped", err)
	}
}

// TestNothingLostWhileLocked: writers with a short wait, each with a Store
// of its own, while the lock is taken and released again and again; every
// record ends in the database, once.
func TestNothingLostWhileLocked(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	openTest(t, Options{Dir: dir}) // creates the schema
	stop := make(chan struct{})
	// The writers start once the lock is first held, so that on a loaded
	// machine they cannot all finish before the holder takes it.
	held := make(chan struct{})
	var holder sync.WaitGroup
	holder.Go(func() {
		first := true
		for {
			unlock, err := lockDatabase(dir)
			if err != nil {
				t.Error(err)
				if first {
					close(held)
				}
				return
			}
			if first {
				close(held)
				first = false
			}
			time.Sleep(30 * time.Millisecond)
			if err := unlock(); err != nil {
				t.Error(err)
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	})
	<-held
	var wg sync.WaitGroup
	var spooled atomic.Int32
	for w := range 6 {
		wg.Go(func() {
			s := openTest(t, Options{Dir: dir, LogWait: 5 * time.Millisecond})
			for i := range 10 {
				if err := s.Write(ctx, []audit.Record{testRecord(fmt.Sprintf("w%d-%d", w, i))}); err != nil {
					t.Error(err)
				}
				if s.spoolWaiting() {
					spooled.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	holder.Wait()
	if spooled.Load() == 0 {
		t.Error("no write was spooled: the test did not test the spool")
	}
	s := openTest(t, Options{Dir: dir})
	seen := map[string]int{}
	for _, c := range commands(t, s) {
		seen[c]++
	}
	for w := range 6 {
		for i := range 10 {
			if c := fmt.Sprintf("w%d-%d", w, i); seen[c] != 1 {
				t.Errorf("record %s stored %d times", c, seen[c])
			}
		}
	}
}
