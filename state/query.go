package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

// FailureAny as Query.Failure matches every failed execution, whatever
// its failure kind.
const FailureAny = "any"

// Query selects records. Empty fields match everything; the string fields
// match exactly.
type Query struct {
	Step, Source, Outcome, ConversationID string
	// Failure is a failure kind, or FailureAny.
	Failure string
	// Since (inclusive) and Until (exclusive) bound the record's Time.
	Since, Until time.Time
	// Limit is the most records returned; zero means all.
	Limit int
	// AfterSeq > 0 returns only records stored after that one, oldest
	// first: what a follower polls for.
	AfterSeq int64
}

// Entry is a stored record and its sequence number, which increases with
// every record written, across processes, and is never reused.
type Entry struct {
	Seq int64 `json:"seq"`
	audit.Record
}

// Records returns the records matching q, newest first; with q.AfterSeq
// set, oldest first (the order to print new records in as they come).
// Times come back in UTC.
func (s *Store) Records(ctx context.Context, q Query) ([]Entry, error) {
	var where []string
	var args []any
	eq := func(col, v string) {
		if v != "" {
			where = append(where, "r."+col+" = ?")
			args = append(args, v)
		}
	}
	eq("step", q.Step)
	eq("source", q.Source)
	eq("outcome", q.Outcome)
	eq("conversation_id", q.ConversationID)
	if q.Failure == FailureAny {
		where = append(where, "r.failure != ''")
	} else {
		eq("failure", q.Failure)
	}
	if !q.Since.IsZero() {
		where = append(where, "r.time_ns >= ?")
		args = append(args, unixNano(q.Since))
	}
	if !q.Until.IsZero() {
		where = append(where, "r.time_ns < ?")
		args = append(args, unixNano(q.Until))
	}
	order := "DESC"
	if q.AfterSeq > 0 {
		where = append(where, "r.seq > ?")
		args = append(args, q.AfterSeq)
		order = "ASC"
	}
	var b strings.Builder
	// A record's payload is its run's (payloads), or inline in records
	// written before the payloads table existed.
	b.WriteString(`SELECT r.seq, r.id, r.time_ns, r.step, r.conversation_id, r.command, r.type, r.source, r.file,
		r.hook_index, COALESCE(p.data, r.payload), r.response, r.duration_ms, r.exit_code, r.stderr, r.failure,
		r.outcome, r.decision, r.agent FROM records r LEFT JOIN payloads p ON p.id = r.payload_id`)
	if len(where) > 0 {
		b.WriteString(" WHERE " + strings.Join(where, " AND "))
	}
	b.WriteString(" ORDER BY r.seq " + order)
	if q.Limit > 0 {
		b.WriteString(" LIMIT ?")
		args = append(args, q.Limit)
	}
	rows, err := s.db.QueryContext(ctx, b.String(), args...)
	if err != nil {
		return nil, fmt.Errorf("read records from %s: %w", s.path, err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("read records from %s: %w", s.path, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read records from %s: %w", s.path, err)
	}
	return out, nil
}

func scanEntry(rows *sql.Rows) (Entry, error) {
	var e Entry
	var ns int64
	var payload, response []byte
	r := &e.Record
	err := rows.Scan(&e.Seq, &r.ID, &ns, &r.Step, &r.ConversationID, &r.Command, &r.Type, &r.Source, &r.File,
		&r.Index, &payload, &response, &r.DurationMS, &r.ExitCode, &r.Stderr, &r.Failure, &r.Outcome, &r.Decision, &r.Agent)
	if err != nil {
		return e, err
	}
	r.Time = time.Unix(0, ns).UTC()
	if payload != nil {
		r.Payload = json.RawMessage(payload)
	}
	if response != nil {
		r.Response = json.RawMessage(response)
	}
	return e, nil
}

// LastSeq is the seq of the newest record, 0 when there is none: where a
// follower starts when no record matches its filters yet.
func (s *Store) LastSeq(ctx context.Context) (int64, error) {
	var seq int64
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM records`).Scan(&seq); err != nil {
		return 0, fmt.Errorf("read records from %s: %w", s.path, err)
	}
	return seq, nil
}

// unixNano is t in Unix nanoseconds, clamped to what an int64 holds
// (years 1678 to 2262), where time.UnixNano's result is undefined: a
// query "until 2999" means "until the end".
func unixNano(t time.Time) int64 {
	switch {
	case t.Before(minTime):
		return math.MinInt64
	case t.After(maxTime):
		return math.MaxInt64
	}
	return t.UnixNano()
}

var (
	minTime = time.Unix(0, math.MinInt64)
	maxTime = time.Unix(0, math.MaxInt64)
)
