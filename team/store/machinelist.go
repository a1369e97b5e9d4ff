package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ListMachines answers one page of a team's machines in machine id
// order. The order is the machines' one key that never changes, so a
// listing paged while machines keep reporting (which moves their last
// sync, and with it their staleness) shows each machine once and misses
// none: a page starts after the id the previous one ended with, read
// through the table's primary key.
func (s *sqlStore) ListMachines(ctx context.Context, q MachineQuery) (MachinePage, error) {
	where := []string{"team_id = ?", "machine_id > ?"}
	args := []any{q.TeamID, q.After}
	if q.StaleOnly {
		where = append(where, "(installed_revision < ? OR last_sync < ?)")
		args = append(args, q.Revision, q.StaleBeforeMs)
	}
	if q.BehindOnly {
		where = append(where, "installed_revision < ?")
		args = append(args, q.Revision)
	}
	if q.Prefix != "" {
		n := utf8.RuneCountInString(q.Prefix)
		where = append(where, "(substr(lower(hostname), 1, ?) = ? OR substr(machine_id, 1, ?) = ?)")
		args = append(args, n, strings.ToLower(q.Prefix), n, q.Prefix)
	}
	if q.Version != "" {
		where = append(where, "version = ?")
		args = append(args, q.Version)
	}
	limit := pageSize(q.Limit, DefaultMachinePage, MaxMachinePage)
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT `+machineCols+` FROM machines WHERE `+strings.Join(where, " AND ")+
		fmt.Sprintf(` ORDER BY team_id, machine_id LIMIT %d`, limit+1)), args...)
	if err != nil {
		return MachinePage{}, fmt.Errorf("list the machines of team %d: %w", q.TeamID, err)
	}
	defer rows.Close()
	page := MachinePage{Machines: []MachineReport{}}
	for rows.Next() {
		m, err := scanMachine(rows)
		if err != nil {
			return MachinePage{}, fmt.Errorf("list the machines of team %d: %w", q.TeamID, err)
		}
		page.Machines = append(page.Machines, m)
	}
	if err := rows.Err(); err != nil {
		return MachinePage{}, fmt.Errorf("list the machines of team %d: %w", q.TeamID, err)
	}
	if len(page.Machines) > limit {
		page.Machines = page.Machines[:limit]
		page.Next = page.Machines[limit-1].MachineID
	}
	return page, nil
}

func scanMachine(row interface{ Scan(...any) error }) (MachineReport, error) {
	var m MachineReport
	var agents string
	if err := row.Scan(&m.TeamID, &m.MachineID, &m.Hostname, &m.OS, &m.Version, &m.InstalledRevision, &agents, &m.TokenName, &m.LastSyncMs); err != nil {
		return MachineReport{}, err
	}
	if agents != "" {
		m.Agents = strings.Split(agents, ",")
	}
	return m, nil
}

// CountMachines counts a team's machines in the database, at one point
// in time: the fleet view's summary costs a few aggregates, not a row
// per machine.
func (s *sqlStore) CountMachines(ctx context.Context, teamID, revision, staleBeforeMs int64) (FleetCounts, error) {
	var c FleetCounts
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT COUNT(*),
			COALESCE(SUM(CASE WHEN installed_revision < ? OR last_sync < ? THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN installed_revision < ? THEN 1 ELSE 0 END), 0)
			FROM machines WHERE team_id = ?`), revision, staleBeforeMs, revision, teamID).Scan(&c.Total, &c.Stale, &c.Behind); err != nil {
			return err
		}
		var err error
		c.Versions, err = nameCounts(ctx, tx, s.d.rebind(`SELECT version, COUNT(*) FROM machines WHERE team_id = ?
			GROUP BY version ORDER BY COUNT(*) DESC, version LIMIT ?`), teamID)
		if err != nil {
			return err
		}
		c.Agents, err = nameCounts(ctx, tx, s.d.rebind(s.d.agentCounts), teamID)
		return err
	})
	if err != nil {
		return FleetCounts{}, fmt.Errorf("count the machines of team %d: %w", teamID, err)
	}
	return c, nil
}

func nameCounts(ctx context.Context, tx *sql.Tx, query string, teamID int64) ([]NameCount, error) {
	rows, err := tx.QueryContext(ctx, query, teamID, MaxNameCounts)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []NameCount{}
	for rows.Next() {
		var n NameCount
		if err := rows.Scan(&n.Name, &n.Machines); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}
