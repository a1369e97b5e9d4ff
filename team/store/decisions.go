package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

const decisionCols = `id, team_id, machine_id, hostname, record_id, at, step, outcome, decision, script_name, agent, conversation_id, what, message, received_at`

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
		days := t.AuditRetentionDays
		if days == 0 {
			days = DefaultAuditRetentionDays
		}
		cutoff := time.Now().Add(-time.Duration(days) * 24 * time.Hour).UnixMilli()
		for _, d := range ds {
			if d.AtMs < cutoff {
				continue // past the retention already: not kept
			}
			res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO decisions (team_id, machine_id, hostname, record_id, at, step, outcome,
				decision, script_name, agent, conversation_id, what, message, received_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (team_id, machine_id, record_id) DO NOTHING`),
				teamID, d.MachineID, d.Hostname, d.RecordID, d.AtMs, d.Step, d.Outcome, d.Decision, d.ScriptName,
				d.Agent, d.ConversationID, d.What, d.Message, now)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err == nil {
				added += int(n)
			}
		}
		_, err = tx.ExecContext(ctx, s.d.rebind(`DELETE FROM decisions WHERE team_id = ? AND at < ?`), teamID, cutoff)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("add %d decisions: %w", len(ds), err)
	}
	return added, nil
}

func (s *sqlStore) Decisions(ctx context.Context, f DecisionFilter) ([]Decision, error) {
	where := []string{"team_id = ?"}
	args := []any{f.TeamID}
	eq := func(col, v string) {
		if v != "" {
			where = append(where, col+" = ?")
			args = append(args, v)
		}
	}
	eq("script_name", f.ScriptName)
	eq("machine_id", f.MachineID)
	eq("agent", f.Agent)
	eq("step", f.Step)
	if f.SinceMs > 0 {
		where = append(where, "at >= ?")
		args = append(args, f.SinceMs)
	}
	if f.UntilMs > 0 {
		where = append(where, "at < ?")
		args = append(args, f.UntilMs)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = DefaultHistoryLimit
	}
	limit = min(limit, MaxHistoryLimit)
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT `+decisionCols+` FROM decisions WHERE `+strings.Join(where, " AND ")+
		fmt.Sprintf(` ORDER BY at DESC, id DESC LIMIT %d`, limit)), args...)
	if err != nil {
		return nil, fmt.Errorf("list the decisions of team %d: %w", f.TeamID, err)
	}
	defer rows.Close()
	out := []Decision{}
	for rows.Next() {
		var d Decision
		if err := rows.Scan(&d.ID, &d.TeamID, &d.MachineID, &d.Hostname, &d.RecordID, &d.AtMs, &d.Step, &d.Outcome, &d.Decision,
			&d.ScriptName, &d.Agent, &d.ConversationID, &d.What, &d.Message, &d.ReceivedAtMs); err != nil {
			return nil, fmt.Errorf("list the decisions of team %d: %w", f.TeamID, err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
