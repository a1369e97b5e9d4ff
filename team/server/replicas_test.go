package server

import (
	"context"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// TestRevocationAcrossReplicas: two servers on one database. Replica B
// answers a member's unchanged polls from memory; the token revoked
// through replica A's admin API is refused by B within a second, and a
// hook created through A ends B's "unchanged" as quickly.
func TestRevocationAcrossReplicas(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			url := b.url(t)
			same := backend{b.name, func(testing.TB) string { return url }}
			a := start(t, same, nil)
			st := openStore(t, same, store.Options{})
			srvB, err := New(Config{Store: st})
			if err != nil {
				t.Fatal(err)
			}
			baseB, _ := serve(t, srvB)
			replicaB := &env{base: baseB, store: st, team: a.team}
			p := protocols[0]
			ctx := context.Background()
			poll := func(known int64) (*teamv1.GetTeamHooksResponse, error) {
				res, err := replicaB.hooksClient(a.member, p).GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{KnownRevision: known}))
				if err != nil {
					return nil, err
				}
				return res.Msg, nil
			}
			if _, _, err := a.store.CreateHook(ctx, "root", a.team.ID, hookFromProto(sampleHook("audit.sh"))); err != nil {
				t.Fatal(err)
			}
			first, err := poll(0)
			if err != nil {
				t.Fatal(err)
			}
			rev := first.Revision
			for range 20 {
				if res, err := poll(rev); err != nil || !res.Unchanged {
					t.Fatalf("unchanged poll through B: %v, %v", res, err)
				}
			}

			adm := a.adminClient(a.admin, p)
			if _, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: a.team.ID, Hook: sampleHook("guard.sh")})); err != nil {
				t.Fatal(err)
			}
			began := time.Now()
			for {
				res, err := poll(rev)
				if err != nil {
					t.Fatal(err)
				}
				if !res.Unchanged && res.Revision == rev+1 && len(res.Hooks) == 2 {
					break
				}
				if time.Since(began) > time.Second {
					t.Fatalf("B still answers %v a second after A's change", res)
				}
				time.Sleep(5 * time.Millisecond)
			}

			toks, err := adm.ListTokens(ctx, connect.NewRequest(&teamv1.ListTokensRequest{TeamId: a.team.ID}))
			if err != nil || len(toks.Msg.Tokens) != 1 {
				t.Fatalf("ListTokens: %v, %v", toks, err)
			}
			if _, err := adm.RevokeToken(ctx, connect.NewRequest(&teamv1.RevokeTokenRequest{Id: toks.Msg.Tokens[0].Id})); err != nil {
				t.Fatal(err)
			}
			began = time.Now()
			for {
				_, err := poll(rev + 1)
				if connect.CodeOf(err) == connect.CodeUnauthenticated {
					t.Logf("refused by B %v after the revocation on A", time.Since(began).Round(time.Millisecond))
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if time.Since(began) > time.Second {
					t.Fatal("B still accepts the token a second after A revoked it")
				}
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
}

// TestAdminRevocationAcrossReplicasAtOnce: an admin token used through
// replica B (so B's memo could hold it) and revoked through replica A is
// refused by B on the very next call, with no wait for the watcher.
func TestAdminRevocationAcrossReplicasAtOnce(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			url := b.url(t)
			same := backend{b.name, func(testing.TB) string { return url }}
			a := start(t, same, nil)
			st := openStore(t, same, store.Options{})
			srvB, err := New(Config{Store: st})
			if err != nil {
				t.Fatal(err)
			}
			baseB, _ := serve(t, srvB)
			replicaB := &env{base: baseB, store: st, team: a.team}
			ctx := context.Background()
			for _, p := range protocols {
				adm := a.adminClient(a.admin, p)
				made, err := adm.CreateToken(ctx, connect.NewRequest(&teamv1.CreateTokenRequest{Name: "lead-" + p.name, Role: "admin"}))
				if err != nil {
					t.Fatal(err)
				}
				lead := replicaB.adminClient(made.Msg.Secret, p)
				for range 5 {
					if _, err := lead.ListTeams(ctx, connect.NewRequest(&teamv1.ListTeamsRequest{})); err != nil {
						t.Fatalf("%s: the new admin token through B: %v", p.name, err)
					}
				}
				if _, err := adm.RevokeToken(ctx, connect.NewRequest(&teamv1.RevokeTokenRequest{Id: made.Msg.Token.Id})); err != nil {
					t.Fatal(err)
				}
				_, err = lead.ListTeams(ctx, connect.NewRequest(&teamv1.ListTeamsRequest{}))
				wantCode(t, p.name+": the revoked admin token through B, at once", err, connect.CodeUnauthenticated)
			}
		})
	}
}
