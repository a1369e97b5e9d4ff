package store

import (
	"context"
	"database/sql"
	"sync"
)

// sqliteWatch sees other processes' commits (`agenthooks serve token
// revoke` while the server runs) through PRAGMA data_version, which
// changes for a connection whenever another connection commits. One
// query on a connection of its own before each use of the memo: a call
// into the SQLite library in this process, no round trip to a server.
type sqliteWatch struct {
	m    *memo
	mu   sync.Mutex
	conn *sql.Conn // nil: the memo is off
	last int64
}

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
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conn == nil {
		return
	}
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
