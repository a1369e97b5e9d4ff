// Package state is agenthooks' durable state: an embedded SQLite database
// (state.db in the state directory) holding the sessions and the execution
// log, so that a series of short-lived `agenthooks run` processes behaves
// like one long-lived engine.
//
// Store implements session.Store and audit.Sink. Many processes may
// use one database at once: it runs in WAL mode (readers never block the
// writer), every write transaction starts with BEGIN IMMEDIATE (it takes
// the write lock up front, so two read-then-write transactions can never
// deadlock on a lock upgrade), and a writer waits up to BusyTimeout for
// another one to finish.
//
// The execution log is kept safe to keep: secrets are redacted and big
// fields cut before a record is stored (redact.go), a run's payload is
// stored once for all its hooks, and the log is bounded by age, count and
// bytes. A log write that cannot get the database in time (Options.LogWait)
// goes to a spool file, ingested by the next write or Open (spool.go).
package state

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/internal/sqlitedb"
	"github.com/agenthooks/agenthooks/session"
)

// FileName is the database's name inside the state directory.
const FileName = "state.db"

// BusyTimeout is how long a write waits for other processes' writes
// before it fails. Writes last milliseconds; the margin is for a machine
// under load with many hook processes starting at once.
const BusyTimeout = 10 * time.Second

var (
	_ session.Store = (*Store)(nil)
	_ audit.Sink    = (*Store)(nil)
)

// Store is an open state database. It is safe for concurrent use by many
// goroutines and, through SQLite's file locks, by many processes.
type Store struct {
	db *sql.DB
	// logWait bounds how long a log write waits for another process's
	// lock (Options.LogWait, else DefaultLogWait); like Options.SessionWait
	// for session updates, it sets SQLite's busy timeout on its own
	// transaction's connection, so one pool serves every write.
	logWait time.Duration
	path    string
	opts    Options
	// writer admits one write transaction of this process at a time, so
	// the goroutines of one process queue here (cheaply, and honouring
	// their contexts) instead of spinning in SQLite's busy handler;
	// SQLite's lock then only arbitrates between processes.
	writer chan struct{}
	stmts  stmts
}

// Open opens (creating if needed) the database in o.Dir, which is created
// with mode 0700 since the log can hold secrets, and brings its schema up
// to date.
func Open(ctx context.Context, o Options) (*Store, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("state directory %q: %w", o.Dir, err)
	}
	if strings.Contains(dir, "?") {
		// The driver takes everything after '?' as its parameters.
		return nil, fmt.Errorf("state directory %q contains '?', which SQLite cannot open: set AGENTHOOKS_STATE_DIR to another directory", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create state directory (set AGENTHOOKS_STATE_DIR to change it): %w", err)
	}
	// journal_size_limit truncates the WAL file after a checkpoint, which
	// would otherwise keep the size of the largest transaction ever
	// written.
	db, path, err := sqlitedb.Open(ctx, filepath.Join(dir, FileName), sqlitedb.Options{BusyTimeout: BusyTimeout, JournalSizeLimit: walSizeLimit})
	if err != nil {
		return nil, err
	}
	logWait := o.LogWait
	if logWait == 0 {
		logWait = DefaultLogWait
	}
	s := &Store{db: db, logWait: logWait, path: path, opts: o, writer: make(chan struct{}, 1)}
	if err := s.migrate(ctx); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// Records spooled while the database was busy: a failure leaves them
	// for the next write.
	_ = s.ingest(ctx)
	return s, nil
}

// walSizeLimit is what the WAL file is truncated to after a checkpoint.
const walSizeLimit = 4 << 20

// Close closes the database.
func (s *Store) Close() error {
	s.closeStmts()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close %s: %w", s.path, err)
	}
	return nil
}

// Path is the database file's absolute path.
func (s *Store) Path() string { return s.path }

// write runs fn in one write transaction (BEGIN IMMEDIATE) and commits it,
// or rolls it back when fn fails, waiting up to BusyTimeout for the lock.
func (s *Store) write(ctx context.Context, fn func(*sql.Tx) error) error {
	return s.writeOn(ctx, 0, BusyTimeout, fn)
}

// writeSession is write for session updates, bounded by SessionWait.
func (s *Store) writeSession(ctx context.Context, fn func(*sql.Tx) error) error {
	if w := s.opts.SessionWait; w > 0 {
		return s.writeOn(ctx, w, w, fn)
	}
	return s.write(ctx, fn)
}

// writeShort is write waiting only s.logWait for the lock, in this
// process and in SQLite.
func (s *Store) writeShort(ctx context.Context, fn func(*sql.Tx) error) error {
	return s.writeOn(ctx, s.logWait, s.logWait, fn)
}

// writeOn is write whose transaction waits up to busy for other
// processes; wait, when positive, bounds the wait for this process's
// other writers too.
func (s *Store) writeOn(ctx context.Context, wait, busy time.Duration, fn func(*sql.Tx) error) (err error) {
	var timeout <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case s.writer <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-timeout:
		return fmt.Errorf("another write of this process held the state database for over %v", wait)
	}
	defer func() { <-s.writer }()

	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close()
	if busy != BusyTimeout {
		// This transaction's own wait; the connection goes back to the
		// pool with the default.
		if err := sqlitedb.SetBusyTimeout(ctx, conn, busy); err != nil {
			return err
		}
		defer func() { _ = sqlitedb.SetBusyTimeout(context.WithoutCancel(ctx), conn, BusyTimeout) }()
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return busyHint(err, busy)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if err := fn(tx); err != nil {
		return busyHint(err, busy)
	}
	return busyHint(tx.Commit(), busy)
}

// busyHint explains a lock timeout, the one error a user can act on.
func busyHint(err error, busy time.Duration) error {
	if sqlitedb.IsBusy(err) {
		return fmt.Errorf("%w (another process held the state database for over %v)", err, busy)
	}
	return err
}
