package state

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agenthooks/agenthooks/internal/filelock"

	"github.com/agenthooks/agenthooks/internal/atomicfile"
)

// The spool keeps the runs that could not be written to the database (it
// was held by another process past LogWait, or failed) until a later
// write, or Open, stores them. It is a file of JSON lines, one run each,
// already redacted, private (0600) like the database. Every access to it
// holds the lock of SpoolLockName, so appends, trims and ingestion never
// interleave, across processes too.
const (
	SpoolName     = "spool.jsonl"
	SpoolLockName = "spool.lock"
	// SpoolMaxBytes bounds the spool: the oldest runs are dropped to make
	// room for a new one, and a run bigger than this is not spooled.
	SpoolMaxBytes = 8 << 20
	// spoolLockWait is how long an append waits for another process at
	// the spool (appending, or ingesting it into the database).
	spoolLockWait = 500 * time.Millisecond
)

func (s *Store) spoolPath() string { return filepath.Join(filepath.Dir(s.path), SpoolName) }
func (s *Store) lockPath() string  { return filepath.Join(filepath.Dir(s.path), SpoolLockName) }

// spoolWaiting reports whether the spool holds runs: one stat.
func (s *Store) spoolWaiting() bool {
	fi, err := os.Stat(s.spoolPath())
	return err == nil && fi.Size() > 0
}

// spool appends r to the spool file.
func (s *Store) spool(r run) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("spool: encode: %w", err)
	}
	line = append(line, '\n')
	if len(line) > SpoolMaxBytes {
		return fmt.Errorf("spool: a run of %d bytes does not fit in %s (%d bytes at most)", len(line), s.spoolPath(), SpoolMaxBytes)
	}
	lock, err := s.lockSpool()
	if err != nil {
		return err
	}
	defer unlockSpool(lock)

	path := s.spoolPath()
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("spool: %w", err)
	}
	if len(data)+len(line) <= SpoolMaxBytes {
		return appendLine(path, line, len(data) > 0 && data[len(data)-1] != '\n')
	}
	// Drop the oldest runs, whole lines, until the new one fits.
	for len(data)+len(line) > SpoolMaxBytes {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			data = nil
			break
		}
		data = data[i+1:]
	}
	return writeSpoolFile(path, append(data, line...))
}

// appendLine appends line to the file at path, after a newline when the
// file ends in a line cut short (a process died while writing it).
func appendLine(path string, line []byte, cutShort bool) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	if cutShort {
		line = append([]byte{'\n'}, line...)
	}
	if _, err := f.Write(line); err != nil {
		_ = f.Close()
		return fmt.Errorf("spool: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("spool: write %s: %w", path, err)
	}
	return nil
}

// lockSpool opens and locks the spool's lock file, waiting up to
// spoolLockWait for another process. The wait is not cut short by a
// canceled context: the spool is where the records of an interrupted run
// go, and they are worth half a second.
func (s *Store) lockSpool() (*os.File, error) {
	f, err := os.OpenFile(s.lockPath(), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	deadline := time.Now().Add(spoolLockWait)
	for {
		ok, err := filelock.TryLock(f)
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("spool: lock %s: %w", f.Name(), err)
		}
		if ok {
			return f, nil
		}
		if time.Now().After(deadline) {
			_ = f.Close()
			return nil, fmt.Errorf("spool: %s stayed locked by another process for %v", f.Name(), spoolLockWait)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func unlockSpool(f *os.File) {
	_ = filelock.Unlock(f) // closing releases it too
	_ = f.Close()
}

// spoolClaim is the spool, locked, while its runs are stored.
type spoolClaim struct {
	s    *Store
	lock *os.File
	data []byte
	// stored says the runs were inserted: once the transaction commits,
	// the spool can go.
	stored bool
}

// claimSpool locks and reads the spool when it holds runs and no other
// process has it; nil otherwise. It runs with the database's write lock
// held, so it never waits: a process at the spool keeps it for later.
func (s *Store) claimSpool() *spoolClaim {
	if !s.spoolWaiting() {
		return nil
	}
	f, err := os.OpenFile(s.lockPath(), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil
	}
	if ok, err := filelock.TryLock(f); err != nil || !ok {
		_ = f.Close()
		return nil
	}
	data, err := os.ReadFile(s.spoolPath())
	if err != nil || len(data) == 0 {
		unlockSpool(f)
		return nil
	}
	return &spoolClaim{s: s, lock: f, data: data}
}

// insert stores the claimed runs in tx, oldest first, and returns the
// first and last seq used. Lines that do not decode (cut short by a
// crash) are skipped. The runs are inserted under a savepoint: if one
// fails, none is, the spool stays as it is, and the caller's own records
// are still written.
func (c *spoolClaim) insert(ctx context.Context, tx *sql.Tx, s *Store) (first, last int64) {
	if _, err := tx.ExecContext(ctx, `SAVEPOINT spool`); err != nil {
		return 0, 0
	}
	for line := range bytes.Lines(c.data) {
		var r run
		if err := json.Unmarshal(line, &r); err != nil {
			continue
		}
		f, l, err := s.insertRun(ctx, tx, r, true)
		if err != nil {
			_, _ = tx.ExecContext(ctx, `ROLLBACK TO spool`)
			_, _ = tx.ExecContext(ctx, `RELEASE spool`)
			return 0, 0
		}
		if first == 0 {
			first = f
		}
		last = max(last, l)
	}
	if _, err := tx.ExecContext(ctx, `RELEASE spool`); err != nil {
		return 0, 0
	}
	c.stored = true
	return first, last
}

// release removes the spool if its runs were stored and committed, and
// unlocks it. A nil claim does nothing.
func (c *spoolClaim) release(committed bool) {
	if c == nil {
		return
	}
	if committed && c.stored {
		// A failed removal ingests the runs again next time, where
		// their ids are found and skipped.
		_ = os.Remove(c.s.spoolPath())
	}
	unlockSpool(c.lock)
}

// writeSpoolFile replaces the spool's content atomically, so that a crash
// leaves the old or the new spool, not half of one.
func writeSpoolFile(path string, data []byte) error {
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf("spool: write %s: %w", path, err)
	}
	return nil
}
