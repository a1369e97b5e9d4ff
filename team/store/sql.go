package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
)

// Options tune a store.
type Options struct {
	// MaxScriptBytes is the largest script_content accepted; 0 means
	// DefaultMaxScriptBytes.
	MaxScriptBytes int
	// MaxConns bounds the PostgreSQL connection pool; 0 means 16. SQLite
	// ignores it.
	MaxConns int
	// DailyDecisionsPerToken bounds the decisions one member token may
	// upload in a day (UTC); 0 means DefaultDailyDecisionsPerToken.
	DailyDecisionsPerToken int64
}

// DefaultDailyDecisionsPerToken is a day's volume of decisions for a
// token: a hundred machines at a thousand decisions each.
const DefaultDailyDecisionsPerToken = 100_000

func (o Options) withDefaults() Options {
	if o.MaxScriptBytes <= 0 {
		o.MaxScriptBytes = DefaultMaxScriptBytes
	}
	if o.MaxConns <= 0 {
		o.MaxConns = 16
	}
	if o.DailyDecisionsPerToken <= 0 {
		o.DailyDecisionsPerToken = DefaultDailyDecisionsPerToken
	}
	return o
}

// Open opens the database a URL names: "sqlite:PATH" (a file, created
// if missing) or "postgres://…" / "postgresql://…" (a server; see
// OpenPostgres), and brings its schema up to date.
func Open(ctx context.Context, url string, o Options) (Store, error) {
	switch {
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		return OpenPostgres(ctx, url, o)
	case strings.HasPrefix(url, "sqlite:"):
		path := strings.TrimPrefix(strings.TrimPrefix(url, "sqlite:"), "//")
		return OpenSQLite(ctx, path, o)
	}
	return nil, fmt.Errorf("database %q: use sqlite:PATH for a file, or postgres://USER@HOST/DB for a PostgreSQL server", url)
}

// sqlStore is the Store of both dialects.
type sqlStore struct {
	db   *sql.DB
	d    dialect
	opts Options
	// desc names the database in errors (without a password).
	desc string
	// writer, when not nil, admits one write transaction of this
	// process at a time: SQLite has one writer, and goroutines queueing
	// here honour their contexts instead of spinning in the busy
	// handler.
	writer chan struct{}
	// memo answers members' polls from memory; watch keeps it true to
	// other processes' changes.
	memo  *memo
	watch watcher
	// owners spares a fleet flush the check of machine ids it already
	// saw bound to their reporting tokens.
	owners machineOwners
	// background, when set, stops what the store runs in the background
	// (SQLite's checkpoints); Close calls it first.
	background func()
	// longestWrite is the longest a write transaction held the database
	// (from its begin to its commit) since LongestWrite last read it, in
	// nanoseconds.
	longestWrite atomic.Int64
}

// LongestWrite says how long the longest write transaction since the
// last call held the database, from its begin (the write lock taken,
// on SQLite) to its commit, and starts over.
func (s *sqlStore) LongestWrite() time.Duration {
	return time.Duration(s.longestWrite.Swap(0))
}

// noteWrite keeps the longest write held.
func (s *sqlStore) noteWrite(held time.Duration) {
	for {
		cur := s.longestWrite.Load()
		if int64(held) <= cur || s.longestWrite.CompareAndSwap(cur, int64(held)) {
			return
		}
	}
}

// open finishes opening a store: it checks the connection, migrates and
// starts the memo's watcher.
func open(ctx context.Context, db *sql.DB, d dialect, desc string, o Options, writer chan struct{}, watch func(*sqlStore) watcher) (*sqlStore, error) {
	// Until the watcher starts, after the migrations, the memo is off.
	s := &sqlStore{db: db, d: d, opts: o, desc: desc, writer: writer, memo: newMemo(false), watch: noWatch{}}
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open %s: %w", desc, err)
	}
	if err := s.migrate(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open %s: %w", desc, err)
	}
	s.memo.turn(true)
	s.watch = watch(s)
	return s, nil
}

func (s *sqlStore) Ping(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		return fmt.Errorf("%s: %w", s.desc, err)
	}
	// A ping may be answered from the pool without a round trip; a
	// query proves the database itself answers.
	var one int
	if err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("%s: %w", s.desc, err)
	}
	return nil
}

func (s *sqlStore) Close() error {
	if s.background != nil {
		s.background()
	}
	s.watch.stop()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close %s: %w", s.desc, err)
	}
	return nil
}

// write runs fn in one write transaction and commits it, or rolls it
// back when fn fails. The memo is emptied, here and (by notification)
// on every replica.
func (s *sqlStore) write(ctx context.Context, fn func(*sql.Tx) error) error {
	return s.writeTx(ctx, true, fn)
}

// writeData runs fn as write does, for data the memo does not hold (the
// fleet, the decisions): the memo stays.
func (s *sqlStore) writeData(ctx context.Context, fn func(*sql.Tx) error) error {
	return s.writeTx(ctx, false, fn)
}

func (s *sqlStore) writeTx(ctx context.Context, changes bool, fn func(*sql.Tx) error) (err error) {
	if s.writer != nil {
		select {
		case s.writer <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		defer func() { <-s.writer }()
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s: begin: %w", s.desc, err)
	}
	began := time.Now()
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
		s.noteWrite(time.Since(began))
	}()
	if err := fn(tx); err != nil {
		return err
	}
	if changes {
		if err := s.watch.notify(ctx, tx); err != nil {
			return fmt.Errorf("%s: notify: %w", s.desc, err)
		}
	}
	err = tx.Commit()
	if changes {
		// Even a failed commit may have committed (the answer was lost).
		s.memo.forget()
	}
	if err != nil {
		return fmt.Errorf("%s: commit: %w", s.desc, err)
	}
	return nil
}

// read runs fn in a read-only transaction that sees one point in time.
func (s *sqlStore) read(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, s.d.readTx)
	if err != nil {
		return fmt.Errorf("%s: begin: %w", s.desc, err)
	}
	defer func() { _ = tx.Rollback() }()
	return fn(tx)
}

// queryer is what both *sql.DB and *sql.Tx offer.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// conflict turns a unique-constraint violation into ErrConflict with the
// given explanation.
func (s *sqlStore) conflict(err error, format string, a ...any) error {
	if err != nil && s.d.isUnique(err) {
		return fmt.Errorf("%s: %w", fmt.Sprintf(format, a...), ErrConflict)
	}
	return err
}

// notFound turns sql.ErrNoRows into ErrNotFound naming what was looked for.
func notFound(err error, what string, id any) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s %v: %w", what, id, ErrNotFound)
	}
	return err
}

func nowMs() int64 { return time.Now().UnixMilli() }

// pageSize is a requested number of rows: def when not positive, at
// most most.
func pageSize(n, def, most int) int {
	if n <= 0 {
		return def
	}
	return min(n, most)
}
