package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/agenthooks/agenthooks/team"
)

// errNoChange rolls back a replacement that changes nothing.
var errNoChange = errors.New("no change")

// ErrStale is a replacement refused because the team's revision is not
// the one the caller based it on.
var ErrStale = errors.New("the team's hooks changed since they were read")

// ReplaceHooks makes hooks the team's whole set, as one revision: a hook
// is matched to a stored one by script name (in any case, as members
// compare names); a stored hook that differs is updated, a new one
// created, a stored one the set lacks deleted, each change recorded in
// the history under the one new revision. A set that changes nothing
// makes no revision (changed is false). When expectRevision is not 0 and
// the team's revision is another, nothing is changed and the error is
// ErrStale.
func (s *sqlStore) ReplaceHooks(ctx context.Context, actor string, teamID int64, hooks []Hook, expectRevision int64) (snap Snapshot, changed bool, err error) {
	seen := map[string]int{}
	for i, h := range hooks {
		if err := ValidateHook(h, s.opts.MaxScriptBytes); err != nil {
			var ve *ValidationError
			if errors.As(err, &ve) {
				ve.Field = fmt.Sprintf("hooks[%d].%s", i, ve.Field)
			}
			return Snapshot{}, false, err
		}
		key := team.ScriptNameKey(h.ScriptName)
		if j, dup := seen[key]; dup {
			return Snapshot{}, false, &ValidationError{Field: fmt.Sprintf("hooks[%d].script_name", i),
				Problem: team.NameTaken(fmt.Sprintf("hooks[%d] (%q)", j, hooks[j].ScriptName)), Fix: "give each hook its own script"}
		}
		seen[key] = i
	}
	now := nowMs()
	err = s.write(ctx, func(tx *sql.Tx) error {
		rev, err := s.bumpRevision(ctx, tx, teamID) // locks the team against other changes
		if err != nil {
			return err
		}
		if expectRevision != 0 && rev != expectRevision+1 {
			return fmt.Errorf("team %d is at revision %d, not %d: %w", teamID, rev-1, expectRevision, ErrStale)
		}
		stored, err := s.teamHooks(ctx, tx, teamID)
		if err != nil {
			return err
		}
		byKey := map[string]Hook{}
		for _, h := range stored {
			byKey[team.ScriptNameKey(h.ScriptName)] = h
		}
		n := 0
		for _, h := range stored {
			if _, keep := seen[team.ScriptNameKey(h.ScriptName)]; keep {
				continue
			}
			if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM hooks WHERE id = ?`), h.ID); err != nil {
				return fmt.Errorf("delete hook %d: %w", h.ID, err)
			}
			if err := s.record(ctx, tx, h, ActionDelete, actor, now, rev); err != nil {
				return err
			}
			n++
		}
		for _, h := range hooks {
			old, ok := byKey[team.ScriptNameKey(h.ScriptName)]
			var out Hook
			switch {
			case ok && sameHook(old, h):
				continue
			case ok:
				out, err = s.updateHook(ctx, tx, teamID, old.ID, h, now, actor)
				if err == nil {
					err = s.record(ctx, tx, out, ActionUpdate, actor, now, rev)
				}
			default:
				out, err = s.insertHook(ctx, tx, teamID, h, now, actor)
				if err == nil {
					err = s.record(ctx, tx, out, ActionCreate, actor, now, rev)
				}
			}
			if err != nil {
				return fmt.Errorf("hook %q: %w", h.ScriptName, err)
			}
			n++
		}
		if n == 0 {
			return errNoChange
		}
		return nil
	})
	switch {
	case errors.Is(err, errNoChange):
		snap, err = s.Hooks(ctx, teamID, 0)
		return snap, false, err
	case err != nil:
		return Snapshot{}, false, fmt.Errorf("replace the hooks of team %d: %w", teamID, err)
	}
	snap, err = s.Hooks(ctx, teamID, 0)
	return snap, true, err
}

// teamHooks reads a team's hooks by id inside tx.
func (s *sqlStore) teamHooks(ctx context.Context, tx *sql.Tx, teamID int64) ([]Hook, error) {
	rows, err := tx.QueryContext(ctx, s.d.rebind(`SELECT `+hookCols+` FROM hooks WHERE team_id = ? ORDER BY id`), teamID)
	if err != nil {
		return nil, fmt.Errorf("read hooks of team %d: %w", teamID, err)
	}
	defer rows.Close()
	var out []Hook
	for rows.Next() {
		h, err := scanHook(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// sameHook reports whether b would store nothing new over a.
func sameHook(a, b Hook) bool {
	return a.Step == b.Step && a.ScriptName == b.ScriptName && slices.Equal(a.OperatingSystems, b.OperatingSystems) &&
		a.Active == b.Active && a.ScriptContent == b.ScriptContent && a.Matcher == b.Matcher &&
		a.TimeoutSeconds == b.TimeoutSeconds && a.FailClosed == b.FailClosed
}
