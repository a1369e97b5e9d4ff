package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agenthooks/agenthooks/team"
)

func (s *sqlStore) SetTeamSandbox(ctx context.Context, actor string, teamID int64, sandboxJSON string) (Team, int64, error) {
	if sandboxJSON != "" {
		if err := team.CheckSandbox([]byte(sandboxJSON)); err != nil {
			ve := &ValidationError{Field: "sandbox_json", Problem: err.Error()}
			var ee *team.EntryError
			if errors.As(err, &ee) {
				ve.Problem, ve.Fix = ee.Message, ee.Fix
				if ee.Key != "" {
					ve.Field = "sandbox_json" + ee.Key
				}
			}
			return Team{}, 0, ve
		}
	}
	var t Team
	var rev int64
	now := nowMs()
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		if rev, err = s.bumpRevision(ctx, tx, teamID); err != nil {
			return err
		}
		t, err = scanTeam(tx.QueryRowContext(ctx, s.d.rebind(`UPDATE teams SET sandbox_json = ? WHERE id = ? RETURNING `+teamCols), sandboxJSON, teamID))
		if err != nil {
			return notFound(err, "team", teamID)
		}
		return s.record(ctx, tx, Hook{TeamID: teamID, ScriptName: "sandbox.json", ScriptContent: sandboxJSON}, ActionSandbox, actor, now, rev)
	})
	if err != nil {
		return Team{}, 0, fmt.Errorf("set the sandbox of team %d: %w", teamID, err)
	}
	return t, rev, nil
}
