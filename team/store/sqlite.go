package store

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

// SQLiteBusyTimeout is how long a write waits for another process's
// write (`agenthooks serve token create` while the server runs) before
// it fails.
const SQLiteBusyTimeout = 10 * time.Second

// OpenSQLite opens (creating if needed, with mode 0600: it holds token
// hashes and the scripts) the SQLite database at path, for one server
// process. Several processes may share it, as the bootstrap commands do
// while a server runs: it runs in WAL mode (readers never wait for the
// writer), and every write transaction is BEGIN IMMEDIATE (it takes the
// write lock up front, so two read-then-write transactions cannot
// deadlock on a lock upgrade).
func OpenSQLite(ctx context.Context, path string, o Options) (Store, error) {
	o = o.withDefaults()
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite database %q: %w", path, err)
	}
	if strings.Contains(abs, "?") {
		// The driver takes everything after '?' as its parameters.
		return nil, fmt.Errorf("sqlite database %q: the path contains '?', which SQLite cannot open: choose another path", abs)
	}
	// Created private before SQLite sees it: SQLite gives the -wal and
	// -shm files the database file's mode.
	if f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600); err != nil {
		return nil, fmt.Errorf("sqlite database: %w", err)
	} else if err := f.Close(); err != nil {
		return nil, fmt.Errorf("sqlite database: %w", err)
	}
	db, err := sql.Open("sqlite", abs+"?"+sqliteParams())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", abs, err)
	}
	s, err := open(ctx, db, sqliteDialect, abs, o, make(chan struct{}, 1))
	if err != nil {
		return nil, err
	}
	return s, nil
}

// sqliteParams are applied by the driver to every connection it opens.
// synchronous=NORMAL is safe in WAL mode against a crashed process; a
// power cut can lose the last committed changes, never corrupt the file.
func sqliteParams() string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", SQLiteBusyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	return q.Encode()
}

var sqliteDialect = dialect{
	name: "sqlite",
	// AUTOINCREMENT: an id is never handed out again, even after the
	// row with the highest id is deleted, so a deleted hook's history
	// cannot be mistaken for a new hook's.
	words: map[string]string{"id": "INTEGER PRIMARY KEY AUTOINCREMENT"},
	// Deferred: the read takes no lock and sees one snapshot of the WAL.
	readTx: &sql.TxOptions{ReadOnly: true},
	isUnique: func(err error) bool {
		var se *sqlite.Error
		return errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)
	},
}
