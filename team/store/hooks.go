package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/team"
)

const hookCols = `id, team_id, hook_step, script_name, operating_systems, is_active, script_content, matcher, timeout_seconds, fail_closed, updated_at, updated_by`

func scanHook(row interface{ Scan(...any) error }) (Hook, error) {
	var h Hook
	var systems string
	err := row.Scan(&h.ID, &h.TeamID, &h.Step, &h.ScriptName, &systems, &h.Active, &h.ScriptContent,
		&h.Matcher, &h.TimeoutSeconds, &h.FailClosed, &h.UpdatedAtMs, &h.UpdatedBy)
	if systems != "" {
		h.OperatingSystems = strings.Split(systems, ",")
	}
	return h, err
}

func (s *sqlStore) Hooks(ctx context.Context, teamID, knownRevision int64) (Snapshot, error) {
	if knownRevision != 0 {
		// The cheap check first: a client polling an unchanged team
		// needs no transaction and no hooks, and mostly no database.
		s.watch.check(ctx)
		t, ok := s.memo.team(teamID)
		if !ok {
			gen := s.memo.begin()
			var err error
			if t, err = s.team(ctx, s.db, teamID); err != nil {
				return Snapshot{}, err
			}
			s.memo.keepTeam(gen, t)
		}
		if knownRevision == t.Revision {
			return Snapshot{Team: t, Unchanged: true}, nil
		}
	}
	var snap Snapshot
	var teamErr error // returned as it is, as the check above returns it
	err := s.read(ctx, func(tx *sql.Tx) error {
		if snap.Team, teamErr = s.team(ctx, tx, teamID); teamErr != nil {
			return teamErr
		}
		hooks, err := s.teamHooks(ctx, tx, teamID)
		snap.Hooks = append([]Hook{}, hooks...)
		return err
	})
	if teamErr != nil && knownRevision == 0 {
		return Snapshot{}, teamErr
	}
	if err != nil {
		return Snapshot{}, fmt.Errorf("read hooks of team %d: %w", teamID, err)
	}
	return snap, nil
}

func (s *sqlStore) CreateHook(ctx context.Context, actor string, teamID int64, h Hook) (Hook, int64, error) {
	if err := ValidateHook(h, s.opts.MaxScriptBytes); err != nil {
		return Hook{}, 0, err
	}
	var rev int64
	now := nowMs()
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		if rev, err = s.bumpRevision(ctx, tx, teamID); err != nil {
			return err
		}
		if err = s.nameFree(ctx, tx, teamID, 0, h.ScriptName); err != nil {
			return err
		}
		h, err = s.insertHook(ctx, tx, teamID, h, now, actor)
		if err != nil {
			return s.conflict(err, "team %d already has a hook with script_name %q", teamID, h.ScriptName)
		}
		return s.record(ctx, tx, h, ActionCreate, actor, now, rev)
	})
	if err != nil {
		return Hook{}, 0, fmt.Errorf("create hook: %w", err)
	}
	return h, rev, nil
}

func (s *sqlStore) UpdateHook(ctx context.Context, actor string, h Hook) (Hook, int64, error) {
	if err := ValidateHook(h, s.opts.MaxScriptBytes); err != nil {
		return Hook{}, 0, err
	}
	return s.changeHook(ctx, h.ID, ActionUpdate, actor, func(tx *sql.Tx, teamID, now int64) (Hook, error) {
		if err := s.nameFree(ctx, tx, teamID, h.ID, h.ScriptName); err != nil {
			return Hook{}, err
		}
		out, err := s.updateHook(ctx, tx, teamID, h.ID, h, now, actor)
		return out, s.conflict(err, "team %d already has another hook with script_name %q", teamID, h.ScriptName)
	})
}

func (s *sqlStore) SetHookActive(ctx context.Context, actor string, id int64, active bool) (Hook, int64, error) {
	action := ActionDeactivate
	if active {
		action = ActionActivate
	}
	return s.changeHook(ctx, id, action, actor, func(tx *sql.Tx, teamID, now int64) (Hook, error) {
		return scanHook(tx.QueryRowContext(ctx, s.d.rebind(`UPDATE hooks SET is_active = ?, updated_at = ?, updated_by = ?
			WHERE id = ? AND team_id = ? RETURNING `+hookCols), active, now, actor, id, teamID))
	})
}

func (s *sqlStore) DeleteHook(ctx context.Context, actor string, id int64) (int64, error) {
	_, rev, err := s.changeHook(ctx, id, ActionDelete, actor, func(tx *sql.Tx, teamID, _ int64) (Hook, error) {
		return scanHook(tx.QueryRowContext(ctx, s.d.rebind(`DELETE FROM hooks WHERE id = ? AND team_id = ? RETURNING `+hookCols), id, teamID))
	})
	return rev, err
}

// insertHook adds h to the team, changed by actor at now.
func (s *sqlStore) insertHook(ctx context.Context, tx *sql.Tx, teamID int64, h Hook, now int64, actor string) (Hook, error) {
	return scanHook(tx.QueryRowContext(ctx, s.d.rebind(`INSERT INTO hooks (team_id, hook_step, script_name,
		operating_systems, is_active, script_content, matcher, timeout_seconds, fail_closed, updated_at, updated_by)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING `+hookCols),
		teamID, h.Step, h.ScriptName, strings.Join(h.OperatingSystems, ","), h.Active, h.ScriptContent,
		h.Matcher, h.TimeoutSeconds, h.FailClosed, now, actor))
}

// updateHook replaces the team's hook id with h, changed by actor at
// now; sql.ErrNoRows when the team has no such hook.
func (s *sqlStore) updateHook(ctx context.Context, tx *sql.Tx, teamID, id int64, h Hook, now int64, actor string) (Hook, error) {
	return scanHook(tx.QueryRowContext(ctx, s.d.rebind(`UPDATE hooks SET hook_step = ?, script_name = ?,
		operating_systems = ?, is_active = ?, script_content = ?, matcher = ?, timeout_seconds = ?,
		fail_closed = ?, updated_at = ?, updated_by = ?
		WHERE id = ? AND team_id = ? RETURNING `+hookCols),
		h.Step, h.ScriptName, strings.Join(h.OperatingSystems, ","), h.Active, h.ScriptContent, h.Matcher,
		h.TimeoutSeconds, h.FailClosed, now, actor, id, teamID))
}

// nameFree refuses name when another hook of the team (other than
// except) has it in any case: members compare names case-insensitively,
// since macOS and Windows would write both to one file. It runs after
// bumpRevision, whose lock on the team's row serialises it with every
// other change to the team.
func (s *sqlStore) nameFree(ctx context.Context, tx *sql.Tx, teamID, except int64, name string) error {
	rows, err := tx.QueryContext(ctx, s.d.rebind(`SELECT id, script_name, hook_step FROM hooks WHERE team_id = ? AND id <> ?`), teamID, except)
	if err != nil {
		return fmt.Errorf("read script names of team %d: %w", teamID, err)
	}
	defer rows.Close()
	key := team.ScriptNameKey(name)
	for rows.Next() {
		var id int64
		var other, step string
		if err := rows.Scan(&id, &other, &step); err != nil {
			return err
		}
		if team.ScriptNameKey(other) == key {
			return fmt.Errorf("%s: %w", team.NameTaken(team.HookLabel(id, other, step)), ErrConflict)
		}
	}
	return rows.Err()
}

// changeHook is the transaction of every change to an existing hook:
// find its team, bump the team's revision (which, in PostgreSQL, locks
// the team against other changes), apply the change, record it.
func (s *sqlStore) changeHook(ctx context.Context, id int64, action, actor string, apply func(tx *sql.Tx, teamID, now int64) (Hook, error)) (Hook, int64, error) {
	var h Hook
	var rev int64
	now := nowMs()
	err := s.write(ctx, func(tx *sql.Tx) error {
		var teamID int64
		err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT team_id FROM hooks WHERE id = ?`), id).Scan(&teamID)
		if err != nil {
			return notFound(err, "hook", id)
		}
		if rev, err = s.bumpRevision(ctx, tx, teamID); err != nil {
			return err
		}
		// The WHERE team_id = ? of apply finds no row when another
		// transaction deleted the hook after the SELECT above.
		if h, err = apply(tx, teamID, now); err != nil {
			return notFound(err, "hook", id)
		}
		return s.record(ctx, tx, h, action, actor, now, rev)
	})
	if err != nil {
		return Hook{}, 0, fmt.Errorf("%s hook %d: %w", action, id, err)
	}
	return h, rev, nil
}

// record appends a history row for a change to h made at now (the
// time the hook row carries too).
func (s *sqlStore) record(ctx context.Context, tx *sql.Tx, h Hook, action, actor string, now, rev int64) error {
	_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO history (team_id, hook_id, action, actor, at, revision, script_name, script_content, options)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`), h.TeamID, h.ID, action, actor, now, rev, h.ScriptName, h.ScriptContent, hookOptions(h))
	if err != nil {
		return fmt.Errorf("record history: %w", err)
	}
	return nil
}

func (s *sqlStore) History(ctx context.Context, f HistoryFilter) ([]Change, error) {
	if f.TeamID == 0 && f.HookID == 0 {
		return nil, &ValidationError{Field: "team_id", Problem: "is not set", Fix: "give the team's id (ListTeams shows them), or a hook_id"}
	}
	if f.Limit < 0 {
		return nil, &ValidationError{Field: "limit", Problem: fmt.Sprintf("%d is negative", f.Limit), Fix: fmt.Sprintf("use 0 for %d entries, or up to %d", DefaultHistoryLimit, MaxHistoryLimit)}
	}
	limit := f.Limit
	if limit == 0 {
		limit = DefaultHistoryLimit
	}
	limit = min(limit, MaxHistoryLimit)
	if f.TeamID != 0 {
		if _, err := s.Team(ctx, f.TeamID); err != nil {
			return nil, err
		}
	}
	var where []string
	var args []any
	if f.TeamID != 0 {
		where, args = append(where, "team_id = ?"), append(args, f.TeamID)
	}
	if f.HookID != 0 {
		where, args = append(where, "hook_id = ?"), append(args, f.HookID)
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT id, team_id, hook_id, action, actor, at, revision, script_name
		FROM history WHERE `+strings.Join(where, " AND ")+` ORDER BY id DESC LIMIT ?`), append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	defer rows.Close()
	changes := []Change{}
	for rows.Next() {
		var c Change
		if err := rows.Scan(&c.ID, &c.TeamID, &c.HookID, &c.Action, &c.Actor, &c.AtMs, &c.Revision, &c.ScriptName); err != nil {
			return nil, fmt.Errorf("read history: %w", err)
		}
		changes = append(changes, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	return changes, nil
}
