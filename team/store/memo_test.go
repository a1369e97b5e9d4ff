package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestMemoSeesOtherReplicas: two stores on one database, as two server
// replicas (PostgreSQL) or a server and `serve token revoke` (SQLite).
// Replica B answers polls from its memo; a token revoked, or a hook
// changed, through replica A stops being answered from B's memo within a
// second: at once on SQLite, by notification on PostgreSQL.
func TestMemoSeesOtherReplicas(t *testing.T) {
	eachURL(t, func(t *testing.T, url string) {
		a, b := openT(t, url, Options{}), openT(t, url, Options{})
		ctx := context.Background()
		team := mustTeam(t, a, "platform")
		tok, secret, err := a.CreateToken(ctx, "laptops", RoleMember, team.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := a.CreateHook(ctx, "alice", team.ID, sampleHook("guard.sh")); err != nil {
			t.Fatal(err)
		}
		waitMemoOn(t, b)
		// B learns the token and the revision, and keeps them.
		for range 3 {
			if _, err := b.Authenticate(ctx, secret); err != nil {
				t.Fatal(err)
			}
			if snap, err := b.Hooks(ctx, team.ID, 1); err != nil || !snap.Unchanged {
				t.Fatalf("poll at revision 1: %+v, %v", snap, err)
			}
		}
		bs := b.(*sqlStore)
		if _, ok := bs.memo.token(hashSecret(secret)); !ok {
			t.Fatal("B's memo does not hold the token it authenticated")
		}

		// A change through A: B's poll at the old revision sees it.
		if _, _, err := a.CreateHook(ctx, "alice", team.ID, sampleHook("audit.sh")); err != nil {
			t.Fatal(err)
		}
		within(t, time.Second, "B sees revision 2", func() bool {
			snap, err := b.Hooks(ctx, team.ID, 1)
			return err == nil && !snap.Unchanged && snap.Team.Revision == 2 && len(snap.Hooks) == 2
		})

		// A revocation through A: B refuses the token.
		if _, err := b.Authenticate(ctx, secret); err != nil {
			t.Fatal(err)
		}
		if err := a.RevokeToken(ctx, tok.ID); err != nil {
			t.Fatal(err)
		}
		within(t, time.Second, "B refuses the revoked token", func() bool {
			_, err := b.Authenticate(ctx, secret)
			return errors.Is(err, ErrNotFound)
		})
		// Its own writes B forgets at once.
		tok2, secret2, err := b.CreateToken(ctx, "desktops", RoleMember, team.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Authenticate(ctx, secret2); err != nil {
			t.Fatal(err)
		}
		if err := b.RevokeToken(ctx, tok2.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Authenticate(ctx, secret2); !errors.Is(err, ErrNotFound) {
			t.Fatalf("a token B revoked itself: %v", err)
		}
	})
}

// TestMemoKeepsNoRacedRead: a value read from the database before a
// change and kept after it would bring the old state back; the memo
// drops it.
func TestMemoKeepsNoRacedRead(t *testing.T) {
	m := newMemo(true)
	gen := m.begin()
	m.forget() // a change lands while the read is under way
	m.keepToken(gen, "h", Token{ID: 1})
	m.keepTeam(gen, Team{ID: 1, Revision: 1})
	if _, ok := m.token("h"); ok {
		t.Error("a token read before a change was kept")
	}
	if _, ok := m.team(1); ok {
		t.Error("a team read before a change was kept")
	}
	m.keepToken(m.begin(), "h", Token{ID: 1})
	if _, ok := m.token("h"); !ok {
		t.Error("a token read after the last change was not kept")
	}
	m.turn(false)
	m.keepToken(m.begin(), "h", Token{ID: 1})
	if _, ok := m.token("h"); ok {
		t.Error("the memo answers while off")
	}
}

// waitMemoOn waits until s's watcher vouches for its memo (PostgreSQL's
// listener has connected).
func waitMemoOn(t *testing.T, s Store) {
	t.Helper()
	m := s.(*sqlStore).memo
	within(t, 10*time.Second, "the memo on", func() bool {
		m.mu.RLock()
		defer m.mu.RUnlock()
		return m.on
	})
}

// within polls cond until it holds, failing the test after d.
func within(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
