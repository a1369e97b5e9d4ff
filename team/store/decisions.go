package store

import (
	"context"
	"database/sql"
	"fmt"
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
		var values strings.Builder
		args := make([]any, 0, len(ds)*decisionInsertCols)
		for _, d := range ds {
			if d.AtMs < cutoff {
				continue // past the retention already: not kept
			}
			if len(args) > 0 {
				values.WriteString(", ")
			}
			values.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, teamID, d.MachineID, d.Hostname, d.RecordID, d.AtMs, d.Step, d.Outcome, d.Decision, d.ScriptName,
				d.Agent, d.ConversationID, d.What, d.Message, now, d.TokenID)
		}
		if len(args) == 0 {
			return nil
		}
		// One statement for the batch: the database parses and plans
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
	where := []string{"team_id = ?"}
	args := []any{f.TeamID}
	// Each filter has its index; with several, the one that narrows
	// most (a machine, then a script, an agent, a step) is read and the
	// others checked on its rows. PostgreSQL's statistics choose so;
	// SQLite, which keeps none unless told to ANALYZE, is told which
	// with the others written so that it cannot use their index.
	indexed := false
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
		where = append(where, "token_id = ?")
		args = append(args, f.TokenID)
	}
	// What is past the retention but not yet pruned is not shown: the
	// retention holds from the moment it is set.
	t, err := s.Team(ctx, f.TeamID)
	if err != nil {
		return nil, fmt.Errorf("list the decisions of team %d: %w", f.TeamID, err)
	}
	where = append(where, "at >= ?")
	args = append(args, max(f.SinceMs, RetentionCutoff(t, time.Now())))
	if f.UntilMs > 0 {
		where = append(where, "at < ?")
		args = append(args, f.UntilMs)
	}
	limit := pageSize(f.Limit, DefaultHistoryLimit, MaxHistoryLimit)
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT `+decisionCols+` FROM decisions WHERE `+strings.Join(where, " AND ")+
		fmt.Sprintf(` ORDER BY received_at DESC, at DESC, id DESC LIMIT %d`, limit)), args...)
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
