package store

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team := mustTeam(t, s, "platform")
		admin, adminSecret, err := s.CreateToken(ctx, "root", RoleAdmin, 0)
		if err != nil {
			t.Fatal(err)
		}
		member, memberSecret, err := s.CreateToken(ctx, "laptops", RoleMember, team.ID)
		if err != nil {
			t.Fatal(err)
		}
		if admin.Role != RoleAdmin || admin.TeamID != 0 || member.Role != RoleMember || member.TeamID != team.ID || member.CreatedAtMs == 0 {
			t.Fatalf("tokens: %+v %+v", admin, member)
		}
		for _, sec := range []string{adminSecret, memberSecret} {
			if !strings.HasPrefix(sec, SecretPrefix) || len(sec) != len(SecretPrefix)+43 {
				t.Errorf("secret %q: want ah_ and 43 base64url characters", sec)
			}
		}
		if adminSecret == memberSecret {
			t.Fatal("two tokens got the same secret")
		}

		for secret, want := range map[string]Token{adminSecret: admin, memberSecret: member} {
			if got, err := s.Authenticate(ctx, secret); err != nil || got != want {
				t.Errorf("Authenticate = %+v, %v; want %+v", got, err, want)
			}
		}
		for _, bad := range []string{"", "ah_", adminSecret + "x", strings.TrimPrefix(adminSecret, SecretPrefix), hashSecret(adminSecret)} {
			if _, err := s.Authenticate(ctx, bad); !errors.Is(err, ErrNotFound) {
				t.Errorf("Authenticate(%q): %v, want ErrNotFound", bad, err)
			}
		}

		if _, _, err := s.CreateToken(ctx, "root", RoleAdmin, 0); !errors.Is(err, ErrConflict) {
			t.Errorf("duplicate name: %v", err)
		}
		var ve *ValidationError
		if _, _, err := s.CreateToken(ctx, "m", RoleMember, 0); !errors.As(err, &ve) || ve.Field != "team_id" {
			t.Errorf("member token without a team: %v", err)
		}
		if _, _, err := s.CreateToken(ctx, "a", RoleAdmin, team.ID); !errors.As(err, &ve) || ve.Field != "team_id" {
			t.Errorf("admin token with a team: %v", err)
		}
		if _, _, err := s.CreateToken(ctx, "a", Role("owner"), 0); !errors.As(err, &ve) || ve.Field != "role" {
			t.Errorf("unknown role: %v", err)
		}
		if _, _, err := s.CreateToken(ctx, "m", RoleMember, 999); !errors.Is(err, ErrNotFound) {
			t.Errorf("member token of a missing team: %v", err)
		}

		if all, err := s.ListTokens(ctx, 0); err != nil || !reflect.DeepEqual(all, []Token{admin, member}) {
			t.Errorf("ListTokens(0) = %+v, %v", all, err)
		}
		if mine, err := s.ListTokens(ctx, team.ID); err != nil || !reflect.DeepEqual(mine, []Token{member}) {
			t.Errorf("ListTokens(team) = %+v, %v", mine, err)
		}

		if err := s.RevokeToken(ctx, member.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, memberSecret); !errors.Is(err, ErrNotFound) {
			t.Errorf("revoked token authenticates: %v", err)
		}
		if err := s.RevokeToken(ctx, member.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("revoke twice: %v", err)
		}
		if all, err := s.ListTokens(ctx, 0); err != nil || !reflect.DeepEqual(all, []Token{admin}) {
			t.Errorf("ListTokens after revoke = %+v, %v", all, err)
		}
		// The name stays taken, so history entries keep one meaning.
		if _, _, err := s.CreateToken(ctx, "laptops", RoleMember, team.ID); !errors.Is(err, ErrConflict) {
			t.Errorf("reuse of a revoked token's name: %v", err)
		}
	})
}

// TestSecretsNotStored looks through every text column of the tokens
// table for the secrets themselves.
func TestSecretsNotStored(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		_, secret, err := s.CreateToken(ctx, "root", RoleAdmin, 0)
		if err != nil {
			t.Fatal(err)
		}
		db := s.(*sqlStore).db
		var name, role, hash string
		if err := db.QueryRowContext(ctx, "SELECT name, role, hash FROM tokens").Scan(&name, &role, &hash); err != nil {
			t.Fatal(err)
		}
		for _, v := range []string{name, role, hash} {
			if strings.Contains(v, strings.TrimPrefix(secret, SecretPrefix)) {
				t.Errorf("the secret is stored: %q", v)
			}
		}
		if hash != hashSecret(secret) || len(hash) != 64 {
			t.Errorf("stored hash %q, want the SHA-256 of the secret", hash)
		}
	})
}
