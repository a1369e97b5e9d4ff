package state

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// pruneEvery is how many inserted records trigger a prune.
func (s *Store) pruneEvery() int64 {
	return min(max(int64(s.opts.MaxRecords)/10, 1), 1000)
}

// Prune deletes records older than the retention, all but the newest
// MaxRecords, the oldest runs while the log is over MaxBytes, and sessions
// not updated within the retention (a conversation that never sent
// sessionEnd). It returns the number of records deleted.
func (s *Store) Prune(ctx context.Context) (int, error) {
	var n int
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		if n, err = s.prune(ctx, tx, time.Now()); err != nil {
			return err
		}
		m, err := s.makeRoom(ctx, tx, 0)
		n += m
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("prune %s: %w", s.path, err)
	}
	return n, nil
}

func (s *Store) prune(ctx context.Context, tx *sql.Tx, now time.Time) (int, error) {
	cutoff := now.Add(-s.opts.Retention).UnixNano()
	old, err := tx.ExecContext(ctx, `DELETE FROM records WHERE time_ns < ?`, cutoff)
	if err != nil {
		return 0, fmt.Errorf("prune records by age: %w", err)
	}
	// The (MaxRecords+1)th newest and everything before it; NULL, which
	// matches nothing, when there are not that many.
	over, err := tx.ExecContext(ctx, `DELETE FROM records
		WHERE seq <= (SELECT seq FROM records ORDER BY seq DESC LIMIT 1 OFFSET ?)`, s.opts.MaxRecords)
	if err != nil {
		return 0, fmt.Errorf("prune records by count: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE updated_at < ?`, cutoff); err != nil {
		return 0, fmt.Errorf("prune sessions: %w", err)
	}
	n1, _ := old.RowsAffected()
	n2, _ := over.RowsAffected()
	return int(n1 + n2), nil
}

// Size is the log's size as MaxBytes bounds it: its records' and
// payloads' bytes, plus the per-record estimate of SQLite's bookkeeping.
func (s *Store) Size(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT bytes FROM log_size`).Scan(&n); err != nil {
		return 0, fmt.Errorf("read the log's size from %s: %w", s.path, err)
	}
	return n, nil
}

// makeRoom deletes the oldest runs, whole, when adding incoming bytes
// would take the log past MaxBytes, until a tenth of MaxBytes is free
// after them: so that the next writes need not prune again. It returns the
// number of records deleted.
func (s *Store) makeRoom(ctx context.Context, tx *sql.Tx, incoming int64) (int, error) {
	var size int64
	q, err := s.stmtIn(ctx, tx, `SELECT bytes FROM log_size`)
	if err != nil {
		return 0, fmt.Errorf("read the log's size: %w", err)
	}
	if err := q.QueryRowContext(ctx).Scan(&size); err != nil {
		return 0, fmt.Errorf("read the log's size: %w", err)
	}
	if size+incoming <= s.opts.MaxBytes {
		return 0, nil
	}
	need := size + incoming - (s.opts.MaxBytes - s.opts.MaxBytes/10)
	// Oldest first; the records of one run are consecutive and share
	// their payload, which is freed with the last of them.
	rows, err := tx.QueryContext(ctx, `SELECT r.seq, r.bytes, r.payload_id, COALESCE(p.bytes, 0)
		FROM records r LEFT JOIN payloads p ON p.id = r.payload_id ORDER BY r.seq`)
	if err != nil {
		return 0, fmt.Errorf("prune records by size: %w", err)
	}
	var cut, freed int64
	var prev sql.NullInt64
	for rows.Next() {
		var seq, bytes, payloadBytes int64
		var payload sql.NullInt64
		if err := rows.Scan(&seq, &bytes, &payload, &payloadBytes); err != nil {
			rows.Close()
			return 0, fmt.Errorf("prune records by size: %w", err)
		}
		sameRun := payload.Valid && payload == prev
		if freed >= need && !sameRun {
			break
		}
		freed += bytes
		if !sameRun {
			freed += payloadBytes
		}
		prev, cut = payload, seq
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("prune records by size: %w", err)
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("prune records by size: %w", err)
	}
	if cut == 0 {
		return 0, nil
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM records WHERE seq <= ?`, cut)
	if err != nil {
		return 0, fmt.Errorf("prune records by size: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
