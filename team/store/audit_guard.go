package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
)

// bindMachine binds each machine id of ds to the token that sends it
// the first time, and refuses decisions that another token sends under
// it, so that one member's token cannot write in another machine's name.
// Decisions without a token (TokenID 0: the store's own callers) are not
// bound.
func (s *sqlStore) bindMachine(ctx context.Context, tx *sql.Tx, teamID int64, ds []Decision) error {
	seen := map[string]bool{}
	for _, d := range ds {
		if d.TokenID == 0 || seen[d.MachineID] {
			continue
		}
		seen[d.MachineID] = true
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO machine_tokens (team_id, machine_id, token_id) VALUES (?, ?, ?)
			ON CONFLICT (team_id, machine_id) DO NOTHING`), teamID, d.MachineID, d.TokenID); err != nil {
			return fmt.Errorf("bind machine %q: %w", d.MachineID, err)
		}
		var owner int64
		if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT token_id FROM machine_tokens WHERE team_id = ? AND machine_id = ?`),
			teamID, d.MachineID).Scan(&owner); err != nil {
			return fmt.Errorf("read the token of machine %q: %w", d.MachineID, err)
		}
		if owner != d.TokenID {
			return fmt.Errorf("machine %q was first reported by token %d: %w", d.MachineID, owner, ErrMachineTaken)
		}
	}
	return nil
}

// countUpload adds added decisions to the day's count of the token that
// sent ds, and refuses them (the transaction is then rolled back) when
// the count passes the daily volume.
func (s *sqlStore) countUpload(ctx context.Context, tx *sql.Tx, ds []Decision, added int, nowMs int64) error {
	if added == 0 || len(ds) == 0 || ds[0].TokenID == 0 {
		return nil
	}
	day := nowMs / (24 * 60 * 60 * 1000)
	var total int64
	err := tx.QueryRowContext(ctx, s.d.rebind(`INSERT INTO token_uploads (token_id, day, decisions) VALUES (?, ?, ?)
		ON CONFLICT (token_id, day) DO UPDATE SET decisions = token_uploads.decisions + excluded.decisions
		RETURNING decisions`), ds[0].TokenID, day, added).Scan(&total)
	if err != nil {
		return fmt.Errorf("count the token's decisions: %w", err)
	}
	if total > s.opts.DailyDecisionsPerToken {
		return fmt.Errorf("%d decisions today, over the %d a token may send in a day (UTC): %w", total, s.opts.DailyDecisionsPerToken, ErrQuota)
	}
	return nil
}

// bindMachinesSet binds the machine ids of sorted fleet reports to the
// tokens that send them first, as bindMachine binds an upload's, and
// sets aside the reports sent under an id another token owns: one
// statement binds (in the reports' order, so replicas binding the same
// ids cannot deadlock), one finds the reports under a foreign id. A
// report without a token (TokenID 0), or whose binding the store has
// seen, is kept unchecked; learned are the bindings it checked.
func (s *sqlStore) bindMachinesSet(ctx context.Context, tx *sql.Tx, reports []MachineReport) (kept, refused []MachineReport, learned []machineOwner, err error) {
	var teams, tokens []int64
	var ids []string
	check := s.owners.unknown(reports)
	for i, m := range reports {
		if check[i] {
			teams, ids, tokens = append(teams, m.TeamID), append(ids, m.MachineID), append(tokens, m.TokenID)
		}
	}
	if len(teams) == 0 {
		return reports, nil, nil, nil
	}
	if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO machine_tokens (team_id, machine_id, token_id)
		SELECT * FROM unnest(?::bigint[], ?::text[], ?::bigint[]) ON CONFLICT (team_id, machine_id) DO NOTHING`), teams, ids, tokens); err != nil {
		return nil, nil, nil, fmt.Errorf("bind %d machines to their tokens: %w", len(teams), err)
	}
	rows, err := tx.QueryContext(ctx, s.d.rebind(`SELECT u.team_id, u.machine_id, u.token_id
		FROM unnest(?::bigint[], ?::text[], ?::bigint[]) AS u(team_id, machine_id, token_id)
		JOIN machine_tokens t ON t.team_id = u.team_id AND t.machine_id = u.machine_id
		WHERE t.token_id <> u.token_id`), teams, ids, tokens)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read the tokens of %d machines: %w", len(teams), err)
	}
	type sender struct {
		team    int64
		machine string
		token   int64
	}
	foreign := map[sender]bool{}
	for rows.Next() {
		var k sender
		if err := rows.Scan(&k.team, &k.machine, &k.token); err != nil {
			rows.Close()
			return nil, nil, nil, fmt.Errorf("read the tokens of %d machines: %w", len(teams), err)
		}
		foreign[k] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, nil, fmt.Errorf("read the tokens of %d machines: %w", len(teams), err)
	}
	for i := range teams {
		if !foreign[sender{teams[i], ids[i], tokens[i]}] {
			learned = append(learned, machineOwner{teams[i], ids[i], tokens[i]})
		}
	}
	if len(foreign) == 0 {
		return reports, nil, learned, nil
	}
	kept = slices.DeleteFunc(reports, func(m MachineReport) bool {
		if foreign[sender{m.TeamID, m.MachineID, m.TokenID}] {
			refused = append(refused, m)
			return true
		}
		return false
	})
	return kept, refused, learned, nil
}
