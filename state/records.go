package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

const insertRecord = `INSERT INTO records (id, time_ns, step, conversation_id, command, type, source, file,
	hook_index, payload_id, response, duration_ms, exit_code, stderr, failure, outcome, decision, bytes, agent)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// Write stores one run's records (audit.Sink calls it once per run, all
// the records carrying the run's payload) in one transaction, redacted as
// the options say, the payload once. A record without a Time is stamped
// with the time of writing, one without an ID gets a new one.
//
// Before the run is inserted, the oldest runs are pruned if it would take
// the log past MaxBytes; every few inserts (a tenth of MaxRecords, at most
// 1000) the same transaction prunes by age and count, so that pruning
// costs nothing on most writes; the seq numbers decide when, so
// short-lived processes that each write a few records still prune in turn.
//
// When the database cannot be written (held by another process past
// LogWait, or failing), the records are appended to the spool file
// instead, and Write returns nil: the next write or Open stores them.
// Only when the spool cannot be written either does Write fail, and the
// records are lost.
func (s *Store) Write(ctx context.Context, recs []audit.Record) error {
	return s.WriteRuns(ctx, [][]audit.Record{recs})
}

// WriteRuns writes the records of several runs (a run's records share its
// payload) as Write does, all in one transaction: an engine that answered
// twenty steps at once syncs the log to disk once, not twenty times. When
// the database cannot be written, each run goes to the spool.
func (s *Store) WriteRuns(ctx context.Context, runs [][]audit.Record) error {
	now := time.Now()
	rs := make([]run, 0, len(runs))
	for _, recs := range runs {
		if len(recs) > 0 {
			rs = append(rs, s.opts.prepare(recs, now))
		}
	}
	if len(rs) == 0 {
		return nil
	}
	err := s.store(ctx, s.opts.LogWait > 0, rs)
	if err == nil {
		return nil
	}
	var lost []error
	for _, r := range rs {
		if serr := s.spool(r); serr != nil {
			lost = append(lost, serr)
		}
	}
	if len(lost) > 0 {
		return fmt.Errorf("write to %s: %w; and %w: the records of %d runs are dropped", s.path, err, errors.Join(lost...), len(lost))
	}
	return nil
}

// store stores the spooled runs (unless another process is at the spool)
// and then rs, in one write transaction, waiting for the lock as long as
// short says; and prunes as Write says.
func (s *Store) store(ctx context.Context, short bool, rs []run) error {
	var claim *spoolClaim
	fn := func(tx *sql.Tx) error {
		var first, last int64
		claim = s.claimSpool()
		if claim != nil {
			first, last = claim.insert(ctx, tx, s)
		}
		for _, r := range rs {
			f, l, err := s.insertRun(ctx, tx, r, false)
			if err != nil {
				return err
			}
			if first == 0 {
				first = f
			}
			last = max(last, l)
		}
		if every := s.pruneEvery(); first > 0 && (first-1)/every != last/every {
			_, err := s.prune(ctx, tx, time.Now())
			return err
		}
		return nil
	}
	var err error
	if short {
		err = s.writeShort(ctx, fn)
	} else {
		err = s.write(ctx, fn)
	}
	claim.release(err == nil)
	return err
}

// insertRun inserts a run's payloads and records, after making room for
// them, and returns the first and last seq it used (0 when none). With
// once set (a spooled run), records whose id is already stored are
// skipped: the spool may be ingested twice if a process dies between the
// commit and the spool's removal.
func (s *Store) insertRun(ctx context.Context, tx *sql.Tx, r run, once bool) (first, last int64, err error) {
	recs := r.Records
	if once {
		recs = recs[:0:0]
		for _, rec := range r.Records {
			var exists bool
			if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM records WHERE id = ?)`, rec.ID).Scan(&exists); err != nil {
				return 0, 0, fmt.Errorf("look up record %s: %w", rec.ID, err)
			}
			if !exists {
				recs = append(recs, rec)
			}
		}
	}
	if len(recs) == 0 {
		return 0, 0, nil
	}
	if _, err := s.makeRoom(ctx, tx, r.size()); err != nil {
		return 0, 0, err
	}
	// The payloads the inserted records use, each inserted once.
	ids := make([]any, len(r.Payloads))
	for _, rec := range recs {
		i := rec.PayloadIndex
		if i < 0 || i >= len(r.Payloads) || ids[i] != nil {
			continue
		}
		ins, err := s.stmtIn(ctx, tx, `INSERT INTO payloads (data, bytes) VALUES (?, ?)`)
		if err != nil {
			return 0, 0, fmt.Errorf("insert payload: %w", err)
		}
		res, err := ins.ExecContext(ctx, []byte(r.Payloads[i]), len(r.Payloads[i]))
		if err != nil {
			return 0, 0, fmt.Errorf("insert payload: %w", err)
		}
		if ids[i], err = res.LastInsertId(); err != nil {
			return 0, 0, err
		}
	}
	stmt, err := s.stmtIn(ctx, tx, insertRecord)
	if err != nil {
		return 0, 0, err
	}
	for _, rec := range recs {
		var payloadID any
		if i := rec.PayloadIndex; i >= 0 && i < len(ids) {
			payloadID = ids[i]
		}
		res, err := stmt.ExecContext(ctx, rec.ID, unixNano(rec.Time), rec.Step, rec.ConversationID, rec.Command, rec.Type,
			rec.Source, rec.File, rec.Index, payloadID, nullBytes(rec.Response), rec.DurationMS, rec.ExitCode,
			rec.Stderr, rec.Failure, rec.Outcome, rec.Decision, rec.size(), rec.Agent)
		if err != nil {
			return 0, 0, fmt.Errorf("insert record %s: %w", rec.ID, err)
		}
		if last, err = res.LastInsertId(); err != nil {
			return 0, 0, err
		}
		if first == 0 {
			first = last
		}
	}
	return first, last, nil
}

// nullBytes stores an absent payload as NULL, so it reads back as nil.
func nullBytes(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

// ingest stores the spooled records, if any, in a write of its own that
// waits only LogWait (or DefaultLogWait) for the lock.
func (s *Store) ingest(ctx context.Context) error {
	if !s.spoolWaiting() {
		return nil
	}
	return s.store(ctx, true, nil)
}
