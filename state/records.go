package state

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

const insertRecord = `INSERT INTO records (id, time_ns, step, conversation_id, command, type, source, file,
	hook_index, payload, response, duration_ms, exit_code, stderr, failure, outcome, decision)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// Write stores records in one transaction, redacted as the options say.
// A record without a Time is stamped with the time of writing, one
// without an ID gets a new one. Every few inserts (a tenth of MaxRecords,
// at most 1000) the same transaction prunes old records, so pruning costs
// nothing on most writes; the seq numbers decide when, so short-lived
// processes that each write a few records still prune in turn.
func (s *Store) Write(ctx context.Context, recs []audit.Record) error {
	if len(recs) == 0 {
		return nil
	}
	now := time.Now()
	err := s.write(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, insertRecord)
		if err != nil {
			return err
		}
		defer stmt.Close()
		var first, last int64
		for i, r := range recs {
			if r.Time.IsZero() {
				r.Time = now
			}
			if r.ID == "" {
				r.ID = audit.NewID(r.Time)
			}
			payload, response, stderr := s.opts.redact(validJSON(r.Payload), validJSON(r.Response), r.Stderr)
			res, err := stmt.ExecContext(ctx, r.ID, unixNano(r.Time), r.Step, r.ConversationID, r.Command, r.Type,
				r.Source, r.File, r.Index, nullBytes(payload), nullBytes(response), r.DurationMS, r.ExitCode,
				stderr, r.Failure, r.Outcome, r.Decision)
			if err != nil {
				return fmt.Errorf("insert record %s: %w", r.ID, err)
			}
			if last, err = res.LastInsertId(); err != nil {
				return err
			}
			if i == 0 {
				first = last
			}
		}
		if every := s.pruneEvery(); (first-1)/every != last/every {
			_, err = s.prune(ctx, tx, now)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("write %d records to %s: %w", len(recs), s.path, err)
	}
	return nil
}

// nullBytes stores an absent payload as NULL, so it reads back as nil.
func nullBytes(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

// pruneEvery is how many inserted records trigger a prune.
func (s *Store) pruneEvery() int64 {
	return min(max(int64(s.opts.MaxRecords)/10, 1), 1000)
}

// Prune deletes records older than the retention and all but the newest
// MaxRecords, and sessions not updated within the retention (a
// conversation that never sent sessionEnd). It returns the number of
// records deleted.
func (s *Store) Prune(ctx context.Context) (int, error) {
	var n int
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = s.prune(ctx, tx, time.Now())
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
