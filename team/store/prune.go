package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// PruneDecisions deletes one chunk of decisions past their team's
// retention, the oldest team first. Each team's chunk is its own short
// write: on SQLite the writer is free between them.
func (s *sqlStore) PruneDecisions(ctx context.Context, limit int) (Pruned, error) {
	var p Pruned
	if limit <= 0 {
		return p, nil
	}
	teams, err := s.ListTeams(ctx)
	if err != nil {
		return p, fmt.Errorf("prune decisions: %w", err)
	}
	now := time.Now()
	for _, t := range teams {
		if p.Rows >= limit {
			break
		}
		var n int64
		var began time.Time
		err := s.writeData(ctx, func(tx *sql.Tx) error {
			began = time.Now()
			res, err := tx.ExecContext(ctx, s.d.rebind(fmt.Sprintf(`DELETE FROM decisions WHERE id IN (
				SELECT id FROM decisions WHERE team_id = ? AND at < ? LIMIT %d%s)`, limit-p.Rows, s.d.skipLocked)),
				t.ID, RetentionCutoff(t, now))
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
		if err != nil {
			return p, fmt.Errorf("prune the decisions of team %d: %w", t.ID, err)
		}
		p.Held = max(p.Held, time.Since(began))
		p.Rows += int(n)
	}
	return p, nil
}

// ReclaimSpace runs SQLite's incremental vacuum for at most pages
// pages, and says how long its write held the database. A database made before the store asked for incremental
// auto-vacuum has none (auto_vacuum stays as it was until a VACUUM;
// docs/team.md says how): its free pages are reused by later writes, and
// this returns at once.
func (s *sqlStore) ReclaimSpace(ctx context.Context, pages int) (bool, time.Duration, error) {
	if s.d.name != "sqlite" || pages <= 0 {
		return false, 0, nil
	}
	var mode int
	if err := s.db.QueryRowContext(ctx, `PRAGMA auto_vacuum`).Scan(&mode); err != nil {
		return false, 0, fmt.Errorf("%s: read auto_vacuum: %w", s.desc, err)
	}
	if mode != sqliteIncrementalVacuum {
		return false, 0, nil
	}
	var free int64
	var began time.Time
	err := s.writeData(ctx, func(tx *sql.Tx) error {
		began = time.Now()
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA incremental_vacuum(%d)`, pages)); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&free)
	})
	if err != nil {
		return false, 0, fmt.Errorf("%s: incremental vacuum: %w", s.desc, err)
	}
	return free > 0, time.Since(began), nil
}

// sqliteIncrementalVacuum is PRAGMA auto_vacuum's INCREMENTAL.
const sqliteIncrementalVacuum = 2
