package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

func (s *sqlStore) SetTeamAudit(ctx context.Context, teamID int64, on bool, retentionDays int) (Team, error) {
	if retentionDays < 0 || retentionDays > MaxAuditRetentionDays {
		return Team{}, &ValidationError{Field: "audit_retention_days", Problem: fmt.Sprintf("%d is not a number of days from 0 to %d", retentionDays, MaxAuditRetentionDays),
			Fix: fmt.Sprintf("use e.g. 30, or 0 for the default of %d days", DefaultAuditRetentionDays)}
	}
	var t Team
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		t, err = scanTeam(tx.QueryRowContext(ctx, s.d.rebind(`UPDATE teams SET audit = ?, audit_retention_days = ? WHERE id = ? RETURNING `+teamCols),
			on, retentionDays, teamID))
		return notFound(err, "team", teamID)
	})
	if err != nil {
		return Team{}, fmt.Errorf("set the audit of team %d: %w", teamID, err)
	}
	return t, nil
}

const machineCols = `team_id, machine_id, hostname, os, version, installed_revision, agents, token_name, last_sync`

func (s *sqlStore) RecordMachines(ctx context.Context, reports []MachineReport) error {
	if len(reports) == 0 {
		return nil
	}
	err := s.writeData(ctx, func(tx *sql.Tx) error {
		for _, m := range reports {
			// A report older than the stored one (from a slower replica)
			// does not replace it; a team deleted since is skipped.
			_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO machines (`+machineCols+`)
				SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM teams WHERE id = ?)
				ON CONFLICT (team_id, machine_id) DO UPDATE SET hostname = excluded.hostname, os = excluded.os,
					version = excluded.version, installed_revision = excluded.installed_revision, agents = excluded.agents,
					token_name = excluded.token_name, last_sync = excluded.last_sync
				WHERE excluded.last_sync >= machines.last_sync`),
				m.TeamID, m.MachineID, m.Hostname, m.OS, m.Version, m.InstalledRevision, strings.Join(m.Agents, ","),
				m.TokenName, m.LastSyncMs, m.TeamID)
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record %d machines: %w", len(reports), err)
	}
	return nil
}

func (s *sqlStore) Machines(ctx context.Context, teamID int64) ([]MachineReport, error) {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT `+machineCols+` FROM machines WHERE team_id = ? ORDER BY last_sync DESC, machine_id`), teamID)
	if err != nil {
		return nil, fmt.Errorf("list the machines of team %d: %w", teamID, err)
	}
	defer rows.Close()
	out := []MachineReport{}
	for rows.Next() {
		var m MachineReport
		var agents string
		if err := rows.Scan(&m.TeamID, &m.MachineID, &m.Hostname, &m.OS, &m.Version, &m.InstalledRevision, &agents, &m.TokenName, &m.LastSyncMs); err != nil {
			return nil, fmt.Errorf("list the machines of team %d: %w", teamID, err)
		}
		if agents != "" {
			m.Agents = strings.Split(agents, ",")
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
