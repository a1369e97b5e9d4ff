package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/agenthooks/agenthooks/internal/sqlitedb"
)

// SQLiteBusyTimeout is how long a write waits for another process's
// write (`agenthooks serve token create` while the server runs) before
// it fails.
const SQLiteBusyTimeout = 10 * time.Second

// SQLiteWALLimit is the size the WAL file is cut back to after a
// checkpoint: a large write (a pruning, a fleet's flush) would otherwise
// leave it at its largest size for good.
const SQLiteWALLimit = 64 << 20

// OpenSQLite opens (creating if needed, with mode 0600: it holds token
// hashes and the scripts) the SQLite database at path, for one server
// process. Several processes may share it, as the bootstrap commands do
// while a server runs: it runs in WAL mode (readers never wait for the
// writer), and every write transaction is BEGIN IMMEDIATE (it takes the
// write lock up front, so two read-then-write transactions cannot
// deadlock on a lock upgrade).
func OpenSQLite(ctx context.Context, path string, o Options) (Store, error) {
	o = o.withDefaults()
	db, abs, err := sqlitedb.Open(ctx, path, sqlitedb.Options{BusyTimeout: SQLiteBusyTimeout, ForeignKeys: true,
		JournalSizeLimit: SQLiteWALLimit, IncrementalVacuum: true})
	if err != nil {
		return nil, err
	}
	s, err := open(ctx, db, sqliteDialect, abs, o, make(chan struct{}, 1), func(s *sqlStore) watcher {
		return newSQLiteWatch(ctx, db, s.memo)
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

var sqliteDialect = dialect{
	name: "sqlite",
	// AUTOINCREMENT: an id is never handed out again, even after the
	// row with the highest id is deleted, so a deleted hook's history
	// cannot be mistaken for a new hook's.
	words: map[string]string{"id": "INTEGER PRIMARY KEY AUTOINCREMENT", "machines_fillfactor": ""},
	// Deferred: the read takes no lock and sees one snapshot of the WAL.
	readTx:   &sql.TxOptions{ReadOnly: true},
	isUnique: sqlitedb.IsUniqueViolation,
	noIndex:  "+",
}
