// Package sqlitedb opens the project's SQLite databases (the state store
// and the team server's store) one way: a private file, WAL mode, a busy
// timeout on every connection, and BEGIN IMMEDIATE for every write
// transaction. Both are shared by several processes at once (hook runs, a
// server and its bootstrap commands), which is what these settings are
// for; a second copy of them is a second place to get one wrong.
package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite" // registers the "sqlite" database/sql driver, pure Go
	sqlite3 "modernc.org/sqlite/lib"
)

// Options are what differs between the databases.
type Options struct {
	// BusyTimeout is how long a statement waits for another process's
	// lock before it fails with SQLITE_BUSY (at least a millisecond).
	BusyTimeout time.Duration
	// JournalSizeLimit, when positive, is the size in bytes the WAL file
	// is truncated to after a checkpoint; otherwise it keeps the size of
	// the largest transaction ever written.
	JournalSizeLimit int64
	// ForeignKeys makes SQLite enforce the schema's foreign keys.
	ForeignKeys bool
	// IncrementalVacuum makes a new database keep its free pages apart,
	// so that PRAGMA incremental_vacuum can give them back to the file
	// system; a database that already has tables keeps its mode (only a
	// VACUUM changes it).
	IncrementalVacuum bool
	// CheckpointApart turns off the checkpoint a commit runs when the WAL
	// has grown past 1,000 pages (wal_autocheckpoint), which the
	// committing writer waits for: the caller checkpoints apart, off the
	// writer's path (Checkpoint).
	CheckpointApart bool
}

// Open opens the database file at path, creating it with mode 0600 if
// needed (SQLite gives the -wal and -shm files the database file's mode,
// and the databases hold secrets), and checks that a connection can be
// made. It returns the database and path made absolute. The folder must
// exist.
//
// Every connection the pool opens gets the busy timeout, journal_mode=WAL
// (readers never wait for the writer), synchronous=NORMAL (safe in WAL
// mode against a crashed or killed process: a committed transaction is in
// the WAL file; only a power cut can lose the last ones, never corrupt the
// file) and the options' other pragmas; every transaction begins
// IMMEDIATE, taking the write lock up front, so two read-then-write
// transactions can never deadlock on a lock upgrade. A read-only
// transaction (sql.TxOptions.ReadOnly) is still deferred: it takes no lock
// and reads one snapshot.
func Open(ctx context.Context, path string, o Options) (*sql.DB, string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", fmt.Errorf("sqlite database %q: %w", path, err)
	}
	if strings.Contains(abs, "?") {
		// The driver takes everything after '?' as its parameters.
		return nil, "", fmt.Errorf("sqlite database %q: the path contains '?', which SQLite cannot open: choose another path", abs)
	}
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, "", fmt.Errorf("sqlite database: %w", err)
	}
	fi, err := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, "", fmt.Errorf("sqlite database: %w", err)
	}
	db, err := sql.Open("sqlite", abs+"?"+params(o))
	if err != nil {
		return nil, "", fmt.Errorf("open %s: %w", abs, err)
	}
	if err := ping(ctx, db, o.BusyTimeout); err != nil {
		_ = db.Close()
		return nil, "", fmt.Errorf("open %s: %w", abs, err)
	}
	if o.IncrementalVacuum && fi.Size() == 0 {
		// Once, on the new file, not on every connection: setting the
		// mode writes it in the file's header, a write that a new
		// connection would wait for (past its busy timeout while writes
		// follow each other). The VACUUM of the empty file keeps it.
		if _, err := db.ExecContext(ctx, "PRAGMA auto_vacuum = INCREMENTAL; VACUUM"); err != nil {
			_ = db.Close()
			return nil, "", fmt.Errorf("open %s: set incremental auto-vacuum: %w", abs, err)
		}
	}
	return db, abs, nil
}

// ping makes the first connection. Switching a new database to WAL takes
// an exclusive lock for which SQLite does not always call its busy
// handler, so two processes creating one database at once can get
// SQLITE_BUSY at once: that is retried for the busy timeout (a second
// at least).
func ping(ctx context.Context, db *sql.DB, busy time.Duration) error {
	deadline := time.Now().Add(max(busy, time.Second))
	for {
		err := db.PingContext(ctx)
		if err == nil || !IsBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// params are the driver's parameters: pragmas it runs on every new
// connection, and the transaction mode.
func params(o Options) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", millis(o.BusyTimeout)))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if o.JournalSizeLimit > 0 {
		q.Add("_pragma", fmt.Sprintf("journal_size_limit(%d)", o.JournalSizeLimit))
	}
	if o.ForeignKeys {
		q.Add("_pragma", "foreign_keys(1)")
	}
	if o.CheckpointApart {
		q.Add("_pragma", "wal_autocheckpoint(0)")
	}
	q.Set("_txlock", "immediate")
	return q.Encode()
}

// SetBusyTimeout sets conn's busy timeout, for a transaction that must
// wait more or less than the pool's default; the caller sets it back
// before the connection returns to the pool.
func SetBusyTimeout(ctx context.Context, conn *sql.Conn, d time.Duration) error {
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", millis(d))); err != nil {
		return fmt.Errorf("set busy timeout: %w", err)
	}
	return nil
}

// millis is d in whole milliseconds, at least one: SQLite reads 0 as "do
// not wait at all".
func millis(d time.Duration) int64 { return max(d.Milliseconds(), 1) }

// IsBusy reports whether err is SQLite's lock timeout (SQLITE_BUSY, in
// any of its extended forms).
func IsBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// IsUniqueViolation reports whether err is a UNIQUE or PRIMARY KEY
// constraint failure.
func IsUniqueViolation(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)
}

// Checkpoint copies what the WAL holds into the database file, as far
// as the oldest reader allows, without taking the write lock (a PASSIVE
// checkpoint): writers go on meanwhile. It reports how many pages the WAL
// holds and how many of them are in the file now.
func Checkpoint(ctx context.Context, conn *sql.Conn) (walPages, copied int64, err error) {
	var busy int64
	if err := conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &walPages, &copied); err != nil {
		return 0, 0, fmt.Errorf("checkpoint: %w", err)
	}
	return walPages, copied, nil
}
