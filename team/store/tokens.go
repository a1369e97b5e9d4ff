package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
)

// SecretPrefix starts every token secret, so that secret scanners and
// people recognise one.
const SecretPrefix = "ah_"

// newSecret makes a secret of 256 random bits.
func newSecret() string {
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand panics rather than return short)
	return SecretPrefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// hashSecret is what the store keeps of a secret. A plain SHA-256 is
// enough: the secret is 256 random bits, so there is nothing for a salt
// or a slow hash to protect against, and lookup by hash stays one index
// probe.
func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

const tokenCols = `id, name, role, COALESCE(team_id, 0), created_at`

func scanToken(row interface{ Scan(...any) error }) (Token, error) {
	var t Token
	err := row.Scan(&t.ID, &t.Name, &t.Role, &t.TeamID, &t.CreatedAtMs)
	return t, err
}

func (s *sqlStore) CreateToken(ctx context.Context, name string, role Role, teamID int64) (Token, string, error) {
	if err := validateName("name", name); err != nil {
		return Token{}, "", err
	}
	if _, err := ParseRole(string(role)); err != nil {
		return Token{}, "", err
	}
	team := sql.NullInt64{Int64: teamID, Valid: teamID != 0}
	switch {
	case role == RoleMember && teamID == 0:
		return Token{}, "", &ValidationError{Field: "team_id", Problem: "is not set for a member token", Fix: "give the id of the team whose hooks the token reads"}
	case role == RoleAdmin && teamID != 0:
		return Token{}, "", &ValidationError{Field: "team_id", Problem: "is set for an admin token, which administers every team", Fix: `leave team_id unset, or use role "member"`}
	}
	secret := newSecret()
	var t Token
	err := s.write(ctx, func(tx *sql.Tx) error {
		if team.Valid {
			if _, err := s.team(ctx, tx, teamID); err != nil {
				return err
			}
		}
		var err error
		t, err = scanToken(tx.QueryRowContext(ctx, s.d.rebind(`INSERT INTO tokens (name, role, team_id, hash, created_at)
			VALUES (?, ?, ?, ?, ?) RETURNING `+tokenCols), name, string(role), team, hashSecret(secret), nowMs()))
		return s.conflict(err, "a token named %q exists or existed (names stay reserved so the history stays unambiguous)", name)
	})
	if err != nil {
		return Token{}, "", fmt.Errorf("create token: %w", err)
	}
	return t, secret, nil
}

func (s *sqlStore) Authenticate(ctx context.Context, secret string) (Token, error) {
	if !strings.HasPrefix(secret, SecretPrefix) {
		return Token{}, fmt.Errorf("token: %w", ErrNotFound)
	}
	hash := hashSecret(secret)
	s.watch.check(ctx)
	if t, ok := s.memo.token(hash); ok {
		return t, nil
	}
	gen := s.memo.begin()
	t, err := s.liveToken(ctx, hash)
	if err != nil {
		return Token{}, err
	}
	s.memo.keepToken(gen, hash, t)
	return t, nil
}

func (s *sqlStore) AuthenticateNow(ctx context.Context, secret string) (Token, error) {
	if !strings.HasPrefix(secret, SecretPrefix) {
		return Token{}, fmt.Errorf("token: %w", ErrNotFound)
	}
	return s.liveToken(ctx, hashSecret(secret))
}

// liveToken reads the unrevoked token whose secret has the digest hash.
func (s *sqlStore) liveToken(ctx context.Context, hash string) (Token, error) {
	t, err := scanToken(s.db.QueryRowContext(ctx, s.d.rebind(`SELECT `+tokenCols+` FROM tokens WHERE hash = ? AND revoked_at IS NULL`), hash))
	if err != nil {
		return Token{}, notFound(err, "token", "")
	}
	return t, nil
}

func (s *sqlStore) ListTokens(ctx context.Context, teamID int64) ([]Token, error) {
	query, args := `SELECT `+tokenCols+` FROM tokens WHERE revoked_at IS NULL ORDER BY id`, []any(nil)
	if teamID != 0 {
		if _, err := s.Team(ctx, teamID); err != nil {
			return nil, err
		}
		query, args = `SELECT `+tokenCols+` FROM tokens WHERE revoked_at IS NULL AND team_id = ? ORDER BY id`, []any{teamID}
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(query), args...)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	defer rows.Close()
	tokens := []Token{}
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, fmt.Errorf("list tokens: %w", err)
		}
		tokens = append(tokens, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	return tokens, nil
}

func (s *sqlStore) RevokeToken(ctx context.Context, id int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`), nowMs(), id)
		if err != nil {
			return fmt.Errorf("revoke token %d: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("revoke token %d: %w", id, err)
		} else if n == 0 {
			return fmt.Errorf("no active token with id %d (never issued, or already revoked): %w", id, ErrNotFound)
		}
		return nil
	})
}
