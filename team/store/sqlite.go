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
		JournalSizeLimit: SQLiteWALLimit, IncrementalVacuum: true, CheckpointApart: true})
	if err != nil {
		return nil, err
	}
	s, err := open(ctx, db, sqliteDialect, abs, o, make(chan struct{}, 1), func(s *sqlStore) watcher {
		return newSQLiteWatch(ctx, db, s.memo)
	})
	if err != nil {
		return nil, err
	}
	s.background = checkpointApart(db)
	return s, nil
}

// sqliteCheckpointEvery is how often the WAL is copied into the
// database file, apart from the writers.
const sqliteCheckpointEvery = 200 * time.Millisecond

// checkpointApart checkpoints the WAL every sqliteCheckpointEvery until
// the returned function is called, which waits for it to stop. A commit
// would otherwise run the checkpoint itself once the WAL passes 1,000
// pages, holding this process's writer while it copies them and syncs the
// file: a pruning's chunk or a fleet flush that crossed it held every
// other write up for as long. A checkpoint takes no write lock; the WAL
// is cut back to SQLiteWALLimit when the next write starts it over.
func checkpointApart(db *sql.DB) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(sqliteCheckpointEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			conn, err := db.Conn(ctx)
			if err != nil {
				continue // closing, or no connection now: the next tick tries again
			}
			// A failed checkpoint leaves the WAL to the next one.
			_, _, _ = sqlitedb.Checkpoint(ctx, conn)
			conn.Close()
		}
	}()
	return func() {
		cancel()
		<-done
	}
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
