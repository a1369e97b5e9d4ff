package store

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"time"
)

// sqliteWatch sees other processes' commits (`agenthooks serve token
// revoke` while the server runs) through PRAGMA data_version, which
// changes for a connection whenever another connection commits: a query
// on a connection of its own, in this process, no round trip to a
// server. It opens a read transaction (file locks, tens of microseconds),
// so under load it runs at most once per sqliteCheckEvery: another
// process's change is seen within that, as another replica's is within a
// notification's delivery on PostgreSQL. This process's own changes empty
// the memo at their commit.
type sqliteWatch struct {
	m       *memo
	checked atomic.Int64 // time.Now().UnixNano() of the last check
	mu      sync.Mutex
	conn    *sql.Conn // nil: the memo is off
	last    int64
}

// sqliteCheckEvery bounds how long another process's commit may go unseen.
const sqliteCheckEvery = time.Millisecond

func newSQLiteWatch(ctx context.Context, db *sql.DB, m *memo) *sqliteWatch {
	w := &sqliteWatch{m: m}
	conn, err := db.Conn(ctx)
	if err != nil {
		m.turn(false)
		return w
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&w.last); err != nil {
		conn.Close()
		m.turn(false)
		return w
	}
	w.conn = conn
	return w
}

func (w *sqliteWatch) check(ctx context.Context) {
	if time.Now().UnixNano()-w.checked.Load() < int64(sqliteCheckEvery) {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conn == nil || time.Now().UnixNano()-w.checked.Load() < int64(sqliteCheckEvery) {
		return // off, or checked by another call while this one waited
	}
	defer func() { w.checked.Store(time.Now().UnixNano()) }()
	var v int64
	if err := w.conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
		// Unsure what changed: read the database until the next answer.
		w.m.forget()
		return
	}
	if v != w.last {
		w.last = v
		w.m.forget()
	}
}

func (w *sqliteWatch) notify(context.Context, *sql.Tx) error { return nil }

func (w *sqliteWatch) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conn != nil {
		w.conn.Close()
		w.conn = nil
	}
	w.m.turn(false)
}
