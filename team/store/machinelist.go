package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// ListMachines answers one page of a team's machines in the fleet
// view's order: the stale ones first (behind the team's revision, or
// silent since q.StaleBeforeMs), the longest silent first; then the
// others, the latest sync first; ties by machine id. Each part is a walk
// of the index of the last sync (machines_team_sync), which carries the
// installed revision, so the order needs no sort.
//
// That order moves as machines report (a report makes a machine the
// latest), so later pages cannot start after a key as the first one saw
// it: a machine could then come twice or be missed. A first page whose
// machines do not all fit takes a listing instead: the matching machine
// ids in that order, read at one point in time, written once (in blocks
// of listingBlock ids, one row each) under an id the page token carries,
// so that any replica serves the pages after it by position. A machine
// keeps its position in a listing and shows its current data; machines
// first seen after the listing began are not in it.
func (s *sqlStore) ListMachines(ctx context.Context, q MachineQuery) (MachinePage, error) {
	limit := pageSize(q.Limit, DefaultMachinePage, MaxMachinePage)
	var page MachinePage
	var ids []string
	var err error
	if q.Listing != 0 {
		ids, page, err = s.listingPage(ctx, q, limit)
	} else {
		ids, page, err = s.beginListing(ctx, q, limit)
	}
	if err != nil {
		return MachinePage{}, fmt.Errorf("list the machines of team %d: %w", q.TeamID, err)
	}
	if page.Machines, err = s.machinesByID(ctx, q.TeamID, ids); err != nil {
		return MachinePage{}, fmt.Errorf("list the machines of team %d: read the page's machines: %w", q.TeamID, err)
	}
	return page, nil
}

// listingBlock is how many ids a row of a listing holds: a page (at
// most MaxMachinePage) spans two rows at most.
const listingBlock = MaxMachinePage

// machineFilters is the WHERE of a listing's filters.
func machineFilters(q MachineQuery) (string, []any) {
	where := []string{"team_id = ?"}
	args := []any{q.TeamID}
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
	return strings.Join(where, " AND "), args
}

// listingQuery names a listing's filters, which its later pages must
// repeat.
func listingQuery(q MachineQuery) string {
	return fmt.Sprintf("stale=%t behind=%t version=%q prefix=%q", q.StaleOnly, q.BehindOnly, q.Version, q.Prefix)
}

// orderedMachineIDs reads the ids of the machines q matches, in the
// fleet view's order, at one point in time: n ids, joined by newlines
// (one string, not a string an id: a listing of 100,000 machines is
// stored joined, and only its first page is split).
func (s *sqlStore) orderedMachineIDs(ctx context.Context, q MachineQuery) (joined string, n int, err error) {
	where, args := machineFilters(q)
	type part struct {
		cond, order string
	}
	// The stale (the behind-only filter's are all stale), then the rest.
	parts := []part{{"(installed_revision < ? OR last_sync < ?)", "last_sync, machine_id"}}
	if !q.StaleOnly && !q.BehindOnly {
		parts = append(parts, part{"installed_revision >= ? AND last_sync >= ?", "last_sync DESC, machine_id DESC"})
	}
	var buf []byte
	sep := func() {
		if n > 0 {
			buf = append(buf, '\n')
		}
		n++
	}
	err = s.read(ctx, func(tx *sql.Tx) error {
		for _, p := range parts {
			pargs := append(slices.Clone(args), q.Revision, q.StaleBeforeMs)
			if s.d.arrays {
				// PostgreSQL joins them (in order) in the server: half the
				// time of sending a row each.
				var part string
				if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT COALESCE(string_agg(machine_id, E'\n' ORDER BY `+p.order+`), '') FROM machines WHERE `+
					where+` AND `+p.cond), pargs...).Scan(&part); err != nil {
					return err
				}
				if part != "" {
					sep()
					buf = append(buf, part...)
					n += strings.Count(part, "\n")
				}
				continue
			}
			rows, err := tx.QueryContext(ctx, s.d.rebind(`SELECT machine_id FROM machines WHERE `+where+` AND `+p.cond+` ORDER BY team_id, `+p.order), pargs...)
			if err != nil {
				return err
			}
			var id sql.RawBytes
			for rows.Next() {
				if err := rows.Scan(&id); err != nil {
					rows.Close()
					return err
				}
				sep()
				buf = append(buf, id...)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	return string(buf), n, err
}

// idBlocks cuts n ids joined by newlines into blocks of listingBlock
// ids, each still joined: substrings of joined, not copies.
func idBlocks(joined string, n int) []string {
	blocks := make([]string, 0, (n+listingBlock-1)/listingBlock)
	for rest := joined; rest != ""; {
		end, count := 0, 0
		for count < listingBlock {
			i := strings.IndexByte(rest[end:], '\n')
			if i < 0 {
				end = len(rest)
				break
			}
			end += i + 1
			count++
		}
		block := strings.TrimSuffix(rest[:end], "\n")
		blocks = append(blocks, block)
		rest = rest[end:]
	}
	return blocks
}

// beginListing reads the first page's ids, and when more machines
// match, writes the listing the next pages read.
func (s *sqlStore) beginListing(ctx context.Context, q MachineQuery, limit int) ([]string, MachinePage, error) {
	var recent int64
	err := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT id FROM machine_listings WHERE team_id = ? AND query = ? AND created_at >= ?
		ORDER BY created_at DESC LIMIT 1`), q.TeamID, listingQuery(q), nowMs()-listingReuse.Milliseconds()).Scan(&recent)
	switch {
	case err == nil:
		if ids, page, err := s.readListing(ctx, q, recent, 0, limit); !errors.Is(err, ErrListingGone) {
			return ids, page, err
		}
	case !errors.Is(err, sql.ErrNoRows):
		return nil, MachinePage{}, fmt.Errorf("look for a recent listing: %w", err)
	}
	joined, n, err := s.orderedMachineIDs(ctx, q)
	if err != nil {
		return nil, MachinePage{}, fmt.Errorf("read the machines in order: %w", err)
	}
	if n == 0 {
		return nil, MachinePage{}, nil
	}
	blocks := idBlocks(joined, n)
	first := strings.Split(blocks[0], "\n")
	if n <= limit {
		return first, MachinePage{}, nil
	}
	now := nowMs()
	var id int64
	err = s.writeData(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, s.d.rebind(`INSERT INTO machine_listings (team_id, query, machines, created_at) VALUES (?, ?, ?, ?) RETURNING id`),
			q.TeamID, listingQuery(q), n, now).Scan(&id); err != nil {
			return err
		}
		stmt, err := tx.PrepareContext(ctx, s.d.rebind(`INSERT INTO machine_listing_blocks (listing_id, block, machine_ids) VALUES (?, ?, ?)`))
		if err != nil {
			return err
		}
		defer stmt.Close()
		for b, block := range blocks {
			if _, err := stmt.ExecContext(ctx, id, b, block); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, MachinePage{}, fmt.Errorf("write the listing: %w", err)
	}
	return first[:limit], MachinePage{Listing: id, Next: limit}, nil
}

// listingReuse is how recent a listing of the same filters a first
// page reads rather than beginning its own: an administrator (or a
// monitor) reloading the fleet view every second writes one listing
// every few seconds, not one a reload.
const listingReuse = 5 * time.Second

// listingPage reads the ids of a later page of a listing.
func (s *sqlStore) listingPage(ctx context.Context, q MachineQuery, limit int) ([]string, MachinePage, error) {
	if q.Offset <= 0 {
		return nil, MachinePage{}, &ValidationError{Field: "page_token", Problem: "is not a page of its listing", Fix: "send the next_page_token of the previous answer"}
	}
	return s.readListing(ctx, q, q.Listing, q.Offset, limit)
}

// readListing reads the ids at offset of a listing, checking that it is
// the team's, of the same filters, and not expired.
func (s *sqlStore) readListing(ctx context.Context, q MachineQuery, listing int64, offset, limit int) ([]string, MachinePage, error) {
	var teamID, total, created int64
	var query string
	err := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT team_id, query, machines, created_at FROM machine_listings WHERE id = ?`), listing).
		Scan(&teamID, &query, &total, &created)
	switch {
	case errors.Is(err, sql.ErrNoRows), err == nil && time.Since(time.UnixMilli(created)) > ListingTTL:
		return nil, MachinePage{}, fmt.Errorf("listing %d: %w", listing, ErrListingGone)
	case err != nil:
		return nil, MachinePage{}, fmt.Errorf("read listing %d: %w", listing, err)
	case teamID != q.TeamID:
		return nil, MachinePage{}, &ValidationError{Field: "page_token", Problem: fmt.Sprintf("is a page of team %d's machines, not team %d's", teamID, q.TeamID),
			Fix: "send the team_id the first page was asked for, or no page_token for a first page"}
	case query != listingQuery(q):
		return nil, MachinePage{}, &ValidationError{Field: "page_token", Problem: "was handed out for other filters",
			Fix: "send the filters of the first page with its page tokens, or no page_token to list with new filters"}
	case offset < 0 || int64(offset) >= total:
		return nil, MachinePage{}, &ValidationError{Field: "page_token", Problem: "is not a page of its listing", Fix: "send the next_page_token of the previous answer"}
	}
	end := min(offset+limit, int(total))
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT machine_ids FROM machine_listing_blocks WHERE listing_id = ? AND block >= ? AND block <= ? ORDER BY block`),
		listing, offset/listingBlock, (end-1)/listingBlock)
	if err != nil {
		return nil, MachinePage{}, fmt.Errorf("read listing %d: %w", listing, err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var block string
		if err := rows.Scan(&block); err != nil {
			return nil, MachinePage{}, err
		}
		ids = append(ids, strings.Split(block, "\n")...)
	}
	if err := rows.Err(); err != nil {
		return nil, MachinePage{}, err
	}
	// Blocks dropped since the listing was read: it expired meanwhile.
	from := offset % listingBlock
	if len(ids) < from+end-offset {
		return nil, MachinePage{}, fmt.Errorf("listing %d: %w", listing, ErrListingGone)
	}
	page := MachinePage{}
	if end < int(total) {
		page.Listing, page.Next = listing, end
	}
	return ids[from : from+end-offset], page, nil
}

// machinesByID reads the team's machines of ids, in the order of ids;
// one gone since (its team's) is left out.
func (s *sqlStore) machinesByID(ctx context.Context, teamID int64, ids []string) ([]MachineReport, error) {
	out := make([]MachineReport, 0, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	query, args := `SELECT `+machineCols+` FROM machines WHERE team_id = ? AND machine_id = ANY(?::text[])`, []any{teamID, ids}
	if !s.d.arrays {
		query = `SELECT ` + machineCols + ` FROM machines WHERE team_id = ? AND machine_id IN (?` + strings.Repeat(", ?", len(ids)-1) + `)`
		args = make([]any, 0, len(ids)+1)
		args = append(args, teamID)
		for _, id := range ids {
			args = append(args, id)
		}
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byID := make(map[string]MachineReport, len(ids))
	for rows.Next() {
		m, err := scanMachine(rows)
		if err != nil {
			return nil, err
		}
		byID[m.MachineID] = m
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, id := range ids {
		if m, ok := byID[id]; ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// DropListings deletes the listings begun before before, blocks first.
func (s *sqlStore) DropListings(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.writeData(ctx, func(tx *sql.Tx) error {
		cutoff := before.UnixMilli()
		if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM machine_listing_blocks WHERE listing_id IN (SELECT id FROM machine_listings WHERE created_at < ?)`), cutoff); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM machine_listings WHERE created_at < ?`), cutoff)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("drop the machine listings begun before %s: %w", before.UTC().Format(time.RFC3339), err)
	}
	return int(n), nil
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
