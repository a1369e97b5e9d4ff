package store

import (
	"context"
	"database/sql"
	"fmt"
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
	if s.background, err = checkpointApart(ctx, s); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// sqliteCheckpointEvery is how often the WAL is copied into the
// database file, apart from the writers.
const sqliteCheckpointEvery = 200 * time.Millisecond

// sqliteWALRestartPages is the WAL's size past which a checkpoint that
// writes went on during is finished while this process's writes wait:
// the WAL starts over only after a checkpoint copied all of it.
const sqliteWALRestartPages = 1000

// checkpointApart checkpoints the WAL every sqliteCheckpointEvery until
// the returned function is called, which waits for it to stop. A commit
// would otherwise run the checkpoint itself once the WAL passes 1,000
// pages, holding this process's writer while it copies them and syncs the
// file: a pruning's chunk or a fleet flush that crossed it held every
// other write up for as long. A checkpoint takes no write lock, so
// writes go on during it; but then it has not copied what they added,
// and the WAL, which starts over (and is cut back to SQLiteWALLimit) only
// once a checkpoint copied all of it, would grow for as long as writes
// never pause. So past sqliteWALRestartPages a second checkpoint runs
// while this process's writes wait (s.writer): it copies only what came
// during the first. The checkpoints run on a connection of their own,
// taken now: a new connection's setup waits for the writers.
func checkpointApart(ctx context.Context, s *sqlStore) (stop func(), err error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: a connection for checkpoints: %w", s.desc, err)
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer conn.Close()
		t := time.NewTicker(sqliteCheckpointEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			// A failed checkpoint leaves the WAL to the next one.
			_ = s.checkpoint(ctx, conn)
		}
	}()
	return func() {
		cancel()
		<-done
	}, nil
}

// checkpoint runs one round of checkpointApart: a checkpoint apart
// from the writers, another for what came during it, and past
// sqliteWALRestartPages a last one while this process's writes wait,
// for the little that came during the second.
func (s *sqlStore) checkpoint(ctx context.Context, conn *sql.Conn) error {
	var wal int64
	for range 2 {
		var err error
		if wal, _, err = sqlitedb.Checkpoint(ctx, conn); err != nil || wal < sqliteWALRestartPages {
			return err
		}
	}
	select {
	case s.writer <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.writer }()
	began := time.Now()
	defer func() { s.noteWrite(time.Since(began)) }()
	_, _, err := sqlitedb.Checkpoint(ctx, conn)
	return err
}

var sqliteDialect = dialect{
	name: "sqlite",
	// AUTOINCREMENT: an id is never handed out again, even after the
	// row with the highest id is deleted, so a deleted hook's history
	// cannot be mistaken for a new hook's.
	words: map[string]string{"id": "INTEGER PRIMARY KEY AUTOINCREMENT", "machines_fillfactor": "", "drop_machines_sync_index": ""},
	// Deferred: the read takes no lock and sees one snapshot of the WAL.
	readTx:   &sql.TxOptions{ReadOnly: true},
	isUnique: sqlitedb.IsUniqueViolation,
	noIndex:  "+",
}
