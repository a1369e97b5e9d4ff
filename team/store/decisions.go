package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"
)

const decisionCols = `id, team_id, machine_id, hostname, record_id, at, step, outcome, decision, script_name, agent, conversation_id, what, message, received_at, token_id`

func (s *sqlStore) AddDecisions(ctx context.Context, teamID int64, ds []Decision) (int, error) {
	added := 0
	now := nowMs()
	err := s.writeData(ctx, func(tx *sql.Tx) error {
		t, err := s.team(ctx, tx, teamID)
		if err != nil {
			return err
		}
		if !t.Audit {
			return fmt.Errorf("team %d: %w", teamID, ErrAuditOff)
		}
		if err := s.bindMachine(ctx, tx, teamID, ds); err != nil {
			return err
		}
		cutoff := RetentionCutoff(t, time.Now())
		// What is past the retention already is not kept.
		kept := slices.DeleteFunc(slices.Clone(ds), func(d Decision) bool { return d.AtMs < cutoff })
		if len(kept) == 0 {
			return nil
		}
		if s.d.arrays {
			if added, err = s.insertDecisionsSet(ctx, tx, teamID, kept, now); err != nil {
				return err
			}
			return s.countUpload(ctx, tx, ds, added, now)
		}
		var values strings.Builder
		args := make([]any, 0, len(kept)*decisionInsertCols)
		for _, d := range kept {
			if len(args) > 0 {
				values.WriteString(", ")
			}
			values.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, teamID, d.MachineID, d.Hostname, d.RecordID, d.AtMs, d.Step, d.Outcome, d.Decision, d.ScriptName,
				d.Agent, d.ConversationID, d.What, d.Message, now, d.TokenID)
		}
		// One statement for the batch (SQLite: one row of values each;
		// PostgreSQL: insertDecisionsSet): the database parses and plans
		// once, and writes the rows and their indexes together.
		res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO decisions (team_id, machine_id, hostname, record_id, at, step, outcome,
			decision, script_name, agent, conversation_id, what, message, received_at, token_id)
			VALUES `+values.String()+`
			ON CONFLICT (team_id, machine_id, record_id) DO NOTHING`), args...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err == nil {
			added = int(n)
		}
		return s.countUpload(ctx, tx, ds, added, now)
	})
	if err != nil {
		return 0, fmt.Errorf("add %d decisions: %w", len(ds), err)
	}
	return added, nil
}

// insertDecisionsSet inserts a batch as one statement over arrays, a
// parameter per column rather than per value.
func (s *sqlStore) insertDecisionsSet(ctx context.Context, tx *sql.Tx, teamID int64, ds []Decision, now int64) (int, error) {
	n := len(ds)
	at, tokens := make([]int64, n), make([]int64, n)
	text := make([][]string, 11)
	for c := range text {
		text[c] = make([]string, n)
	}
	for i, d := range ds {
		at[i], tokens[i] = d.AtMs, d.TokenID
		for c, v := range []string{d.MachineID, d.Hostname, d.RecordID, d.Step, d.Outcome, d.Decision, d.ScriptName, d.Agent, d.ConversationID, d.What, d.Message} {
			text[c][i] = v
		}
	}
	res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO decisions (team_id, machine_id, hostname, record_id, at, step, outcome,
		decision, script_name, agent, conversation_id, what, message, received_at, token_id)
		SELECT ?::bigint, u.machine_id, u.hostname, u.record_id, u.at, u.step, u.outcome, u.decision, u.script_name, u.agent,
			u.conversation_id, u.what, u.message, ?::bigint, u.token_id
		FROM unnest(?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[])
			AS u(machine_id, hostname, record_id, at, step, outcome, decision, script_name, agent, conversation_id, what, message, token_id)
		ON CONFLICT (team_id, machine_id, record_id) DO NOTHING`),
		teamID, now, text[0], text[1], text[2], at, text[3], text[4], text[5], text[6], text[7], text[8], text[9], text[10], tokens)
	if err != nil {
		return 0, err
	}
	added, err := res.RowsAffected()
	return int(added), err
}

// decisionInsertCols is how many values AddDecisions writes per row.
const decisionInsertCols = 15

// RetentionCutoff is the time (Unix milliseconds) before which a team's decisions are past
// its retention.
func RetentionCutoff(t Team, now time.Time) int64 {
	days := t.AuditRetentionDays
	if days == 0 {
		days = DefaultAuditRetentionDays
	}
	return now.Add(-time.Duration(days) * 24 * time.Hour).UnixMilli()
}

func (s *sqlStore) Decisions(ctx context.Context, f DecisionFilter) ([]Decision, error) {
	// What is past the retention but not yet pruned is not shown: the
	// retention holds from the moment it is set.
	t, err := s.Team(ctx, f.TeamID)
	if err != nil {
		return nil, fmt.Errorf("list the decisions of team %d: %w", f.TeamID, err)
	}
	since := max(f.SinceMs, RetentionCutoff(t, time.Now()))
	limit := pageSize(f.Limit, DefaultHistoryLimit, MaxHistoryLimit)
	first, last := since/dayMs, (f.UntilMs-1)/dayMs
	var query string
	var args []any
	switch {
	case f.UntilMs > 0 && f.UntilMs <= since:
		return []Decision{}, nil
	case f.UntilMs > 0 && last-first < maxUntilDays:
		query, args = s.decisionsUntil(f, since, first, last, limit)
	default:
		where, wargs := s.decisionConds(f, false, since)
		query, args = `SELECT `+decisionCols+` FROM decisions WHERE `+where+` ORDER BY `+decisionOrder+fmt.Sprintf(` LIMIT %d`, limit), wargs
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(query), args...)
	if err != nil {
		return nil, fmt.Errorf("list the decisions of team %d: %w", f.TeamID, err)
	}
	defer rows.Close()
	out := []Decision{}
	for rows.Next() {
		var d Decision
		if err := rows.Scan(&d.ID, &d.TeamID, &d.MachineID, &d.Hostname, &d.RecordID, &d.AtMs, &d.Step, &d.Outcome, &d.Decision,
			&d.ScriptName, &d.Agent, &d.ConversationID, &d.What, &d.Message, &d.ReceivedAtMs, &d.TokenID); err != nil {
			return nil, fmt.Errorf("list the decisions of team %d: %w", f.TeamID, err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// decisionOrder is the audit's order: the newest received first.
const decisionOrder = `received_at DESC, at DESC, id DESC`

// dayMs is a day in milliseconds: decisions_rx_day's unit, which the
// queries must write as the index does (at / 86400000).
const dayMs = 86_400_000

// maxUntilDays bounds the days an until filter reads one by one (one
// part of a compound statement each; SQLite allows 500); a longer span
// reads the order of receipt.
const maxUntilDays = 400

// decisionConds is the WHERE of a filter: the team, the filters, and
// the member's time from since (and until). Each filter has its index;
// with several, the one that narrows most (a machine, then a script, an
// agent, a step) is read and the others checked on its rows.
// PostgreSQL's statistics choose so; SQLite, which keeps none unless told
// to ANALYZE, is told which with the others written so that it cannot use
// their index; with noEq none of them is (the day's index is read).
func (s *sqlStore) decisionConds(f DecisionFilter, noEq bool, since int64) (string, []any) {
	where := []string{"team_id = ?"}
	args := []any{f.TeamID}
	indexed := noEq
	eq := func(col, v string) {
		if v == "" {
			return
		}
		if indexed {
			col = s.d.noIndex + col
		}
		indexed = true
		where = append(where, col+" = ?")
		args = append(args, v)
	}
	eq("machine_id", f.MachineID)
	eq("script_name", f.ScriptName)
	eq("agent", f.Agent)
	eq("step", f.Step)
	if f.TokenID != 0 {
		col := "token_id"
		if noEq {
			col = s.d.noIndex + col
		}
		where = append(where, col+" = ?")
		args = append(args, f.TokenID)
	}
	// The member's time bounds the rows but does not order them: the
	// list is in the order of receipt, which an index of received_at
	// gives; SQLite would otherwise read the range of at through its
	// index and sort the team's every row.
	at := s.d.noIndex + "at"
	where = append(where, at+" >= ?")
	args = append(args, since)
	if f.UntilMs > 0 {
		where = append(where, at+" < ?")
		args = append(args, f.UntilMs)
	}
	return strings.Join(where, " AND "), args
}

// decisionsUntil is the query of a filter with until, which the order
// of receipt cannot seek: the decisions dated before until are those
// received before it and any uploaded late, after it, so reading the
// newest received first reads past every decision received since, a
// million rows at a million (96–257 ms). Instead each day of the member's
// time from since to until is read apart, through the index of (team,
// day, received_at), newest received first, at most limit rows each
// (only the keys, which the index holds), and the newest limit of those
// are the answer: rows read are at most the days times limit, however
// many decisions came since.
func (s *sqlStore) decisionsUntil(f DecisionFilter, since, first, last int64, limit int) (string, []any) {
	var parts []string
	var args []any
	for day := first; day <= last; day++ {
		where, wargs := s.decisionConds(f, true, since)
		parts = append(parts, fmt.Sprintf(`SELECT * FROM (SELECT received_at, at, id FROM decisions WHERE %s AND (at / 86400000) = ? ORDER BY %s LIMIT %d) AS d%d`,
			where, decisionOrder, limit, day-first))
		args = append(args, wargs...)
		args = append(args, day)
	}
	return `SELECT ` + decisionCols + ` FROM decisions WHERE id IN (SELECT id FROM (` + strings.Join(parts, " UNION ALL ") +
		`) AS days ORDER BY ` + decisionOrder + fmt.Sprintf(` LIMIT %d) ORDER BY %s`, limit, decisionOrder), args
}
