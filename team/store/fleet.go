package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
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
	// One order for every writer: two replicas writing the same machines
	// lock their rows in the same sequence, so neither can hold a row the
	// other waits for while waiting for one the other holds.
	reports = slices.Clone(reports)
	slices.SortFunc(reports, func(a, b MachineReport) int {
		return cmp.Or(cmp.Compare(a.TeamID, b.TeamID), strings.Compare(a.MachineID, b.MachineID), cmp.Compare(b.LastSyncMs, a.LastSyncMs))
	})
	// A machine twice in one batch keeps its newest report: a statement
	// may not update one row twice.
	reports = slices.CompactFunc(reports, func(a, b MachineReport) bool { return a.TeamID == b.TeamID && a.MachineID == b.MachineID })
	err := s.writeData(ctx, func(tx *sql.Tx) error {
		if s.d.arrays {
			return s.recordMachinesSet(ctx, tx, reports)
		}
		return s.recordMachinesEach(ctx, tx, reports)
	})
	if err != nil {
		return fmt.Errorf("record %d machines: %w", len(reports), err)
	}
	return nil
}

// machineUpsert ends both forms of the fleet's write: a report older
// than the stored one (from a slower replica) does not replace it.
const machineUpsert = ` ON CONFLICT (team_id, machine_id) DO UPDATE SET hostname = excluded.hostname, os = excluded.os,
	version = excluded.version, installed_revision = excluded.installed_revision, agents = excluded.agents,
	token_name = excluded.token_name, last_sync = excluded.last_sync
	WHERE excluded.last_sync >= machines.last_sync`

// recordMachinesSet writes the reports as one statement over arrays,
// which unnest walks in their order; the reports of a team deleted
// since are dropped first, since a join or a sort in the statement would
// cost more than the write.
func (s *sqlStore) recordMachinesSet(ctx context.Context, tx *sql.Tx, reports []MachineReport) error {
	var teamIDs []int64
	for _, m := range reports {
		if len(teamIDs) == 0 || teamIDs[len(teamIDs)-1] != m.TeamID {
			teamIDs = append(teamIDs, m.TeamID)
		}
	}
	rows, err := tx.QueryContext(ctx, s.d.rebind(`SELECT id FROM teams WHERE id = ANY(?::bigint[])`), teamIDs)
	if err != nil {
		return err
	}
	live := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		live[id] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	reports = slices.DeleteFunc(reports, func(m MachineReport) bool { return !live[m.TeamID] })
	n := len(reports)
	if n == 0 {
		return nil
	}
	teams, revs, lasts := make([]int64, n), make([]int64, n), make([]int64, n)
	ids, hosts, oses, versions, agents, tokens := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	for i, m := range reports {
		teams[i], ids[i], hosts[i], oses[i], versions[i] = m.TeamID, m.MachineID, m.Hostname, m.OS, m.Version
		revs[i], agents[i], tokens[i], lasts[i] = m.InstalledRevision, strings.Join(m.Agents, ","), m.TokenName, m.LastSyncMs
	}
	_, err = tx.ExecContext(ctx, s.d.rebind(`INSERT INTO machines (`+machineCols+`)
		SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::bigint[])`+
		machineUpsert), teams, ids, hosts, oses, versions, revs, agents, tokens, lasts)
	return err
}

// recordMachinesEach writes the reports with one prepared statement, in
// the one transaction: SQLite's single writer takes them all at once.
func (s *sqlStore) recordMachinesEach(ctx context.Context, tx *sql.Tx, reports []MachineReport) error {
	stmt, err := tx.PrepareContext(ctx, s.d.rebind(`INSERT INTO machines (`+machineCols+`)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM teams WHERE id = ?)`+machineUpsert))
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, m := range reports {
		if _, err := stmt.ExecContext(ctx, m.TeamID, m.MachineID, m.Hostname, m.OS, m.Version, m.InstalledRevision,
			strings.Join(m.Agents, ","), m.TokenName, m.LastSyncMs, m.TeamID); err != nil {
			return err
		}
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
		m, err := scanMachine(rows)
		if err != nil {
			return nil, fmt.Errorf("list the machines of team %d: %w", teamID, err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
