package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
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

func (s *sqlStore) RecordMachines(ctx context.Context, reports []MachineReport) ([]MachineReport, error) {
	if len(reports) == 0 {
		return nil, nil
	}
	// One order for every writer: two replicas writing the same machines
	// lock their rows in the same sequence, so neither can hold a row the
	// other waits for while waiting for one the other holds.
	reports = slices.Clone(reports)
	slices.SortFunc(reports, func(a, b MachineReport) int {
		return cmp.Or(cmp.Compare(a.TeamID, b.TeamID), strings.Compare(a.MachineID, b.MachineID), cmp.Compare(b.LastSyncMs, a.LastSyncMs))
	})
	var refused []MachineReport
	if s.d.arrays {
		var learned []machineOwner
		err := s.writeData(ctx, func(tx *sql.Tx) error {
			var err error
			refused, learned, err = s.recordMachinesSet(ctx, tx, reports)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("record %d machines: %w", len(reports), err)
		}
		s.owners.learn(learned)
		return refused, nil
	}
	// SQLite's one writer takes the reports machineRowsPerWrite at a
	// time, so that an upload or a pruning's chunk waits for one part of
	// a large flush, not for all of it. A report's machine and its
	// newest report are never split (newestReports sees them together).
	for len(reports) > 0 {
		n := min(len(reports), machineRowsPerWrite)
		for n < len(reports) && reports[n].TeamID == reports[n-1].TeamID && reports[n].MachineID == reports[n-1].MachineID {
			n++
		}
		var part []MachineReport
		var learned []machineOwner
		err := s.writeData(ctx, func(tx *sql.Tx) error {
			var err error
			part, learned, err = s.recordMachinesEach(ctx, tx, reports[:n])
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("record %d machines: %w", len(reports), err)
		}
		s.owners.learn(learned)
		refused = append(refused, part...)
		reports = reports[n:]
	}
	return refused, nil
}

// machineRowsPerWrite is how many machines one write of a fleet flush
// holds SQLite's writer for: a few milliseconds.
const machineRowsPerWrite = 1000

// newestReports keeps each machine's newest report of sorted reports: a
// statement may not update one row twice.
func newestReports(reports []MachineReport) []MachineReport {
	return slices.CompactFunc(reports, func(a, b MachineReport) bool { return a.TeamID == b.TeamID && a.MachineID == b.MachineID })
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
// cost more than the write. Before it, the machine ids are bound to
// their tokens and the reports under another token's id set aside
// (bindMachinesSet).
func (s *sqlStore) recordMachinesSet(ctx context.Context, tx *sql.Tx, reports []MachineReport) (refused []MachineReport, learned []machineOwner, err error) {
	var teamIDs []int64
	for _, m := range reports {
		if len(teamIDs) == 0 || teamIDs[len(teamIDs)-1] != m.TeamID {
			teamIDs = append(teamIDs, m.TeamID)
		}
	}
	rows, err := tx.QueryContext(ctx, s.d.rebind(`SELECT id FROM teams WHERE id = ANY(?::bigint[])`), teamIDs)
	if err != nil {
		return nil, nil, err
	}
	live := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, nil, err
		}
		live[id] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	reports = slices.DeleteFunc(reports, func(m MachineReport) bool { return !live[m.TeamID] })
	reports, refused, learned, err = s.bindMachinesSet(ctx, tx, reports)
	if err != nil {
		return nil, nil, err
	}
	reports = newestReports(reports)
	n := len(reports)
	if n == 0 {
		return refused, learned, nil
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
	return refused, learned, err
}

// recordMachinesEach writes the reports in rows of values, in one
// transaction (a part of a flush, on SQLite). Each report's machine id is
// bound to its token first, and a report under another token's id is set
// aside.
func (s *sqlStore) recordMachinesEach(ctx context.Context, tx *sql.Tx, reports []MachineReport) (refused []MachineReport, learned []machineOwner, err error) {
	bind, err := tx.PrepareContext(ctx, s.d.rebind(`INSERT INTO machine_tokens (team_id, machine_id, token_id)
		SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM teams WHERE id = ?) ON CONFLICT (team_id, machine_id) DO NOTHING`))
	if err != nil {
		return nil, nil, err
	}
	defer bind.Close()
	owner, err := tx.PrepareContext(ctx, s.d.rebind(`SELECT token_id FROM machine_tokens WHERE team_id = ? AND machine_id = ?`))
	if err != nil {
		return nil, nil, err
	}
	defer owner.Close()
	check, i := s.owners.unknown(reports), -1
	reports = slices.DeleteFunc(reports, func(m MachineReport) bool {
		i++
		if err != nil || !check[i] {
			return false
		}
		if _, err = bind.ExecContext(ctx, m.TeamID, m.MachineID, m.TokenID, m.TeamID); err != nil {
			return false
		}
		var tok int64
		switch err = owner.QueryRowContext(ctx, m.TeamID, m.MachineID).Scan(&tok); {
		case errors.Is(err, sql.ErrNoRows):
			err = nil // no such team: the write below drops it
			return false
		case err != nil:
			return false
		case tok == m.TokenID:
			learned = append(learned, machineOwner{m.TeamID, m.MachineID, m.TokenID})
			return false
		}
		refused = append(refused, m)
		return true
	})
	if err != nil {
		return nil, nil, fmt.Errorf("bind the machines to their tokens: %w", err)
	}
	// Rows of values, machineRowsPerStatement to a statement: one call
	// into the database for each, rather than one a machine, which cost
	// as much as the write itself.
	reports = newestReports(reports)
	var stmt *sql.Stmt
	args := make([]any, 0, machineRowsPerStatement*len(machineValueCols))
	for len(reports) > 0 {
		n := min(len(reports), machineRowsPerStatement)
		args = args[:0]
		for _, m := range reports[:n] {
			args = append(args, m.TeamID, m.MachineID, m.Hostname, m.OS, m.Version, m.InstalledRevision,
				strings.Join(m.Agents, ","), m.TokenName, m.LastSyncMs)
		}
		reports = reports[n:]
		if n < machineRowsPerStatement {
			if _, err := tx.ExecContext(ctx, machineRowsInsert(n), args...); err != nil {
				return nil, nil, err
			}
			break
		}
		if stmt == nil {
			if stmt, err = tx.PrepareContext(ctx, machineRowsInsert(n)); err != nil {
				return nil, nil, err
			}
			defer stmt.Close()
		}
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return nil, nil, err
		}
	}
	return refused, learned, nil
}

// machineRowsPerStatement is how many machines one statement of
// recordMachinesEach writes: 900 parameters, under SQLite's least limit
// of 999.
const machineRowsPerStatement = 100

// machineValueCols are the columns of machineCols, in order.
var machineValueCols = strings.Split(machineCols, ", ")

// machineRowsInsert is the upsert of n rows of values (SQLite's
// parameters), each kept only while its team exists.
func machineRowsInsert(n int) string {
	row := "(?" + strings.Repeat(", ?", len(machineValueCols)-1) + ")"
	return `INSERT INTO machines (` + machineCols + `) SELECT * FROM (VALUES ` + row + strings.Repeat(", "+row, n-1) +
		`) AS v WHERE EXISTS (SELECT 1 FROM teams WHERE id = v.column1)` + machineUpsert
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
