package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
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

// CountMachines counts a team's machines in one pass of the database
// over them, grouped by version and set of agents: the groups are few
// however many the machines, and the sums by version and by agent are
// made from them here.
func (s *sqlStore) CountMachines(ctx context.Context, teamID, revision, staleBeforeMs int64) (FleetCounts, error) {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT version, agents, COUNT(*),
		SUM(CASE WHEN installed_revision < ? OR last_sync < ? THEN 1 ELSE 0 END),
		SUM(CASE WHEN installed_revision < ? THEN 1 ELSE 0 END)
		FROM machines WHERE team_id = ? GROUP BY version, agents`), revision, staleBeforeMs, revision, teamID)
	if err != nil {
		return FleetCounts{}, fmt.Errorf("count the machines of team %d: %w", teamID, err)
	}
	defer rows.Close()
	var c FleetCounts
	byVersion, byAgent := map[string]int64{}, map[string]int64{}
	for rows.Next() {
		var version, agents string
		var n, stale, behind int64
		if err := rows.Scan(&version, &agents, &n, &stale, &behind); err != nil {
			return FleetCounts{}, fmt.Errorf("count the machines of team %d: %w", teamID, err)
		}
		c.Total += n
		c.Stale += stale
		c.Behind += behind
		byVersion[version] += n
		if agents != "" {
			for a := range strings.SplitSeq(agents, ",") {
				byAgent[a] += n
			}
		}
	}
	if err := rows.Err(); err != nil {
		return FleetCounts{}, fmt.Errorf("count the machines of team %d: %w", teamID, err)
	}
	c.Versions, c.Agents = commonest(byVersion), commonest(byAgent)
	return c, nil
}

// commonest is the MaxNameCounts names with the most machines, the most
// first (then by name).
func commonest(counts map[string]int64) []NameCount {
	out := make([]NameCount, 0, len(counts))
	for name, n := range counts {
		out = append(out, NameCount{Name: name, Machines: n})
	}
	slices.SortFunc(out, func(a, b NameCount) int {
		return cmp.Or(cmp.Compare(b.Machines, a.Machines), strings.Compare(a.Name, b.Name))
	})
	return out[:min(len(out), MaxNameCounts)]
}
