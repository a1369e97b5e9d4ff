package store

import (
	"context"
	"database/sql"
	"fmt"
)

const teamCols = `id, name, revision, created_at, audit, audit_retention_days, sandbox_json`

func scanTeam(row interface{ Scan(...any) error }) (Team, error) {
	var t Team
	err := row.Scan(&t.ID, &t.Name, &t.Revision, &t.CreatedAtMs, &t.Audit, &t.AuditRetentionDays, &t.SandboxJSON)
	return t, err
}

func (s *sqlStore) CreateTeam(ctx context.Context, name string) (Team, error) {
	if err := validateName("name", name); err != nil {
		return Team{}, err
	}
	var t Team
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		t, err = scanTeam(tx.QueryRowContext(ctx, s.d.rebind(
			`INSERT INTO teams (name, revision, created_at) VALUES (?, 0, ?) RETURNING `+teamCols),
			name, nowMs()))
		return s.conflict(err, "team %q", name)
	})
	if err != nil {
		return Team{}, fmt.Errorf("create team: %w", err)
	}
	return t, nil
}

func (s *sqlStore) Team(ctx context.Context, id int64) (Team, error) {
	return s.team(ctx, s.db, id)
}

func (s *sqlStore) team(ctx context.Context, q queryer, id int64) (Team, error) {
	t, err := scanTeam(q.QueryRowContext(ctx, s.d.rebind(`SELECT `+teamCols+` FROM teams WHERE id = ?`), id))
	if err != nil {
		return Team{}, notFound(err, "team", id)
	}
	return t, nil
}

func (s *sqlStore) TeamByName(ctx context.Context, name string) (Team, error) {
	t, err := scanTeam(s.db.QueryRowContext(ctx, s.d.rebind(`SELECT `+teamCols+` FROM teams WHERE name = ?`), name))
	if err != nil {
		return Team{}, notFound(err, "team", fmt.Sprintf("%q", name))
	}
	return t, nil
}

func (s *sqlStore) ListTeams(ctx context.Context) ([]Team, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+teamCols+` FROM teams ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list teams: %w", err)
	}
	defer rows.Close()
	var teams []Team
	for rows.Next() {
		t, err := scanTeam(rows)
		if err != nil {
			return nil, fmt.Errorf("list teams: %w", err)
		}
		teams = append(teams, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list teams: %w", err)
	}
	return teams, nil
}

// bumpRevision raises a team's revision inside a write transaction and
// returns the new one. In PostgreSQL it also locks the team's row until
// the transaction ends, so changes to one team are serialised and their
// revisions and history rows come in the same order.
func (s *sqlStore) bumpRevision(ctx context.Context, tx *sql.Tx, teamID int64) (int64, error) {
	var rev int64
	err := tx.QueryRowContext(ctx, s.d.rebind(`UPDATE teams SET revision = revision + 1 WHERE id = ? RETURNING revision`), teamID).Scan(&rev)
	if err != nil {
		return 0, notFound(err, "team", teamID)
	}
	return rev, nil
}
