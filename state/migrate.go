package state

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are the schema's versions: migrations[i] takes the database
// from user_version i to i+1. They are append-only: a released migration
// is never edited, a change is a new one.
var migrations = []string{
	// 1: sessions and records.
	`CREATE TABLE sessions (
		conversation_id TEXT PRIMARY KEY,
		data            TEXT NOT NULL,    -- session.Session as JSON
		updated_at      INTEGER NOT NULL  -- Unix nanoseconds
	);
	CREATE INDEX sessions_updated_at ON sessions(updated_at);

	-- seq is AUTOINCREMENT so that a pruned seq is never handed out
	-- again: log --follow reads "everything after seq N".
	CREATE TABLE records (
		seq             INTEGER PRIMARY KEY AUTOINCREMENT,
		id              TEXT NOT NULL,
		time_ns         INTEGER NOT NULL,
		step            TEXT NOT NULL,
		conversation_id TEXT NOT NULL,
		command         TEXT NOT NULL,
		type            TEXT NOT NULL,
		source          TEXT NOT NULL,
		file            TEXT NOT NULL,
		hook_index      INTEGER NOT NULL,
		payload         BLOB,
		response        BLOB,
		duration_ms     REAL NOT NULL,
		exit_code       INTEGER NOT NULL,
		stderr          TEXT NOT NULL,
		failure         TEXT NOT NULL,
		outcome         TEXT NOT NULL,
		decision        TEXT NOT NULL
	);
	-- One index per log filter. SQLite orders equal keys by rowid (seq),
	-- so "WHERE step = ? ORDER BY seq DESC LIMIT n" walks one index
	-- without sorting.
	CREATE INDEX records_time ON records(time_ns);
	CREATE INDEX records_step ON records(step);
	CREATE INDEX records_source ON records(source);
	CREATE INDEX records_outcome ON records(outcome);
	CREATE INDEX records_failure ON records(failure);
	CREATE INDEX records_conversation ON records(conversation_id);`,

	// 2: a run's payload stored once, and the log's size kept up to date.
	// Records written before keep their payload inline; later ones have
	// payload NULL and point at their run's payload. bytes is what a row
	// counts for in the size bound; log_size holds their sum, kept by the
	// triggers, which also delete a payload with its last record.
	`CREATE TABLE payloads (
		id    INTEGER PRIMARY KEY,
		data  BLOB NOT NULL,
		bytes INTEGER NOT NULL
	);
	ALTER TABLE records ADD COLUMN payload_id INTEGER;
	ALTER TABLE records ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
	UPDATE records SET bytes = 256
		+ length(CAST(id AS BLOB)) + length(CAST(step AS BLOB)) + length(CAST(conversation_id AS BLOB))
		+ length(CAST(command AS BLOB)) + length(CAST(type AS BLOB)) + length(CAST(source AS BLOB))
		+ length(CAST(file AS BLOB)) + COALESCE(length(payload), 0) + COALESCE(length(response), 0)
		+ length(CAST(stderr AS BLOB)) + length(CAST(failure AS BLOB)) + length(CAST(outcome AS BLOB))
		+ length(CAST(decision AS BLOB));
	CREATE INDEX records_payload ON records(payload_id);
	-- Spooled records are ingested at most once: by id.
	CREATE INDEX records_id ON records(id);
	CREATE TABLE log_size (
		one   INTEGER PRIMARY KEY CHECK (one = 1),
		bytes INTEGER NOT NULL
	);
	INSERT INTO log_size (one, bytes) SELECT 1, COALESCE(SUM(bytes), 0) FROM records;
	CREATE TRIGGER records_added AFTER INSERT ON records BEGIN
		UPDATE log_size SET bytes = bytes + new.bytes;
	END;
	CREATE TRIGGER records_deleted AFTER DELETE ON records BEGIN
		UPDATE log_size SET bytes = bytes - old.bytes;
		DELETE FROM payloads WHERE id = old.payload_id
			AND NOT EXISTS (SELECT 1 FROM records WHERE payload_id = old.payload_id);
	END;
	CREATE TRIGGER payloads_added AFTER INSERT ON payloads BEGIN
		UPDATE log_size SET bytes = bytes + new.bytes;
	END;
	CREATE TRIGGER payloads_deleted AFTER DELETE ON payloads BEGIN
		UPDATE log_size SET bytes = bytes - old.bytes;
	END;`,

	// 3: the agent a step came from (run --from AGENT); '' for steps in
	// Cursor's own format.
	`ALTER TABLE records ADD COLUMN agent TEXT NOT NULL DEFAULT '';`,
}

// migrate brings the schema to len(migrations), one transaction per
// migration. Each transaction re-reads user_version under the write lock,
// so processes opening a new database at once apply every migration
// exactly once.
func (s *Store) migrate(ctx context.Context) error {
	v, err := userVersion(ctx, s.db)
	if err != nil {
		return err
	}
	if err := checkVersion(v); err != nil {
		return err
	}
	for v < len(migrations) {
		err := s.write(ctx, func(tx *sql.Tx) error {
			cur, err := userVersion(ctx, tx)
			if err != nil {
				return err
			}
			if err := checkVersion(cur); err != nil {
				return err
			}
			if cur > v {
				v = cur // another process got there first
				return nil
			}
			if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migrate schema to version %d: %w", v+1, err)
			}
			// PRAGMA takes no parameters; v+1 is our own integer.
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
				return fmt.Errorf("migrate schema to version %d: %w", v+1, err)
			}
			v++
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// checkVersion rejects a database written by a newer agenthooks, whose
// schema this one would misread.
func checkVersion(v int) error {
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this agenthooks knows (%d): upgrade agenthooks, or set AGENTHOOKS_STATE_DIR to another directory", v, len(migrations))
	}
	return nil
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func userVersion(ctx context.Context, q querier) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}
