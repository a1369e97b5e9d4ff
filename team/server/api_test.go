package server

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"

	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

// TestProtocols administers and fetches through every protocol the one
// handler speaks, gRPC over HTTP/2 without TLS included.
func TestProtocols(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		for _, p := range protocols {
			t.Run(p.name, func(t *testing.T) {
				adm := e.adminClient(e.admin, p)
				created, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: e.team.ID, Hook: sampleHook(p.name + ".sh")}))
				if err != nil {
					t.Fatal(err)
				}
				got, err := e.hooksClient(e.member, p).GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{}))
				if err != nil {
					t.Fatal(err)
				}
				if got.Msg.Revision != created.Msg.Revision || got.Msg.TeamId != e.team.ID || got.Msg.TeamName != "platform" {
					t.Errorf("GetTeamHooks: revision %d team %d %q; want %d, %d, platform", got.Msg.Revision, got.Msg.TeamId, got.Msg.TeamName, created.Msg.Revision, e.team.ID)
				}
				last := got.Msg.Hooks[len(got.Msg.Hooks)-1]
				if last.ScriptName != p.name+".sh" || last.ScriptContent != sampleHook("").ScriptContent || last.UpdatedBy != "root" || last.Id != created.Msg.Hook.Id {
					t.Errorf("last hook %+v", last)
				}
			})
		}
	})
}

func TestAuthentication(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		p := protocols[0]
		getHooks := func(secret string) error {
			_, err := e.hooksClient(secret, p).GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{}))
			return err
		}
		listTeams := func(secret string) error {
			_, err := e.adminClient(secret, p).ListTeams(ctx, connect.NewRequest(&teamv1.ListTeamsRequest{}))
			return err
		}
		if err := getHooks(e.member); err != nil {
			t.Fatalf("member token on GetTeamHooks: %v", err)
		}
		if err := listTeams(e.admin); err != nil {
			t.Fatalf("admin token on ListTeams: %v", err)
		}
		if ce := wantCode(t, "no token", getHooks(""), connect.CodeUnauthenticated); ce != nil {
			if !strings.Contains(ce.Message(), "Authorization: Bearer") || !strings.HasPrefix(ce.Meta().Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("no token: message %q, WWW-Authenticate %q", ce.Message(), ce.Meta().Get("WWW-Authenticate"))
			}
		}
		wantCode(t, "no token on admin", listTeams(""), connect.CodeUnauthenticated)
		wantCode(t, "wrong token", getHooks(e.member+"x"), connect.CodeUnauthenticated)
		wantCode(t, "not a token", getHooks("hunter2"), connect.CodeUnauthenticated)
		if ce := wantCode(t, "member token on admin", listTeams(e.member), connect.CodePermissionDenied); ce != nil && !strings.Contains(ce.Message(), "admin token") {
			t.Errorf("member on admin: %q", ce.Message())
		}
		if ce := wantCode(t, "admin token on GetTeamHooks", getHooks(e.admin), connect.CodePermissionDenied); ce != nil && !strings.Contains(ce.Message(), "member token") {
			t.Errorf("admin on GetTeamHooks: %q", ce.Message())
		}

		// A basic-auth header is not a bearer token.
		hc := e.hooksClient("", p)
		req := connect.NewRequest(&teamv1.GetTeamHooksRequest{})
		req.Header().Set("Authorization", "Basic "+e.member)
		_, err := hc.GetTeamHooks(ctx, req)
		wantCode(t, "basic auth", err, connect.CodeUnauthenticated)
		// The scheme is case-insensitive.
		req = connect.NewRequest(&teamv1.GetTeamHooksRequest{})
		req.Header().Set("Authorization", "bearer "+e.member)
		if _, err := hc.GetTeamHooks(ctx, req); err != nil {
			t.Errorf("lower-case bearer: %v", err)
		}

		// Revocation takes effect at the next call.
		adm := e.adminClient(e.admin, p)
		tok, err := adm.CreateToken(ctx, connect.NewRequest(&teamv1.CreateTokenRequest{Name: "ci", Role: "member", TeamId: e.team.ID}))
		if err != nil {
			t.Fatal(err)
		}
		if err := getHooks(tok.Msg.Secret); err != nil {
			t.Fatalf("new member token: %v", err)
		}
		list, err := adm.ListTokens(ctx, connect.NewRequest(&teamv1.ListTokensRequest{TeamId: e.team.ID}))
		if err != nil || len(list.Msg.Tokens) != 2 || list.Msg.Tokens[1].Name != "ci" || list.Msg.Tokens[1].Role != "member" {
			t.Fatalf("ListTokens: %v, %v", list, err)
		}
		if _, err := adm.RevokeToken(ctx, connect.NewRequest(&teamv1.RevokeTokenRequest{Id: tok.Msg.Token.Id})); err != nil {
			t.Fatal(err)
		}
		wantCode(t, "revoked token", getHooks(tok.Msg.Secret), connect.CodeUnauthenticated)
		_, err = adm.RevokeToken(ctx, connect.NewRequest(&teamv1.RevokeTokenRequest{Id: tok.Msg.Token.Id}))
		wantCode(t, "revoke twice", err, connect.CodeNotFound)
		// A new admin token works, and revoking oneself is allowed.
		adm2, err := adm.CreateToken(ctx, connect.NewRequest(&teamv1.CreateTokenRequest{Name: "second admin", Role: "admin"}))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.adminClient(adm2.Msg.Secret, p).RevokeToken(ctx, connect.NewRequest(&teamv1.RevokeTokenRequest{Id: adm2.Msg.Token.Id})); err != nil {
			t.Fatal(err)
		}
		wantCode(t, "self-revoked admin", listTeams(adm2.Msg.Secret), connect.CodeUnauthenticated)
	})
}

// TestInvalidArguments: every refused input is InvalidArgument with a
// message that names the field and says how to fix it, and changes
// nothing.
func TestInvalidArguments(t *testing.T) {
	e := start(t, backends[0], func(c *Config) { c.MaxScriptBytes = 1000 })
	ctx := context.Background()
	adm := e.adminClient(e.admin, protocols[0])
	existing, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: e.team.ID, Hook: sampleHook("ok.sh")}))
	if err != nil {
		t.Fatal(err)
	}
	with := func(edit func(h *teamv1.TeamHook)) *teamv1.TeamHook {
		h := sampleHook("x.sh")
		edit(h)
		return h
	}
	create := func(h *teamv1.TeamHook) error {
		_, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: e.team.ID, Hook: h}))
		return err
	}
	cases := []struct {
		field string
		err   error
	}{
		{"hook_step", create(with(func(h *teamv1.TeamHook) { h.HookStep = "beforeShell" }))},
		{"script_name", create(with(func(h *teamv1.TeamHook) { h.ScriptName = "../../.bashrc" }))},
		{"script_name", create(with(func(h *teamv1.TeamHook) { h.ScriptName = ".hidden" }))},
		{"script_name", create(with(func(h *teamv1.TeamHook) { h.ScriptName = "" }))},
		{"operating_systems", create(with(func(h *teamv1.TeamHook) { h.OperatingSystems = []string{"macOS"} }))},
		{"script_content", create(with(func(h *teamv1.TeamHook) { h.ScriptContent = strings.Repeat("x", 1001) }))},
		{"matcher", create(with(func(h *teamv1.TeamHook) { h.Matcher = "[a-" }))},
		{"timeout_seconds", create(with(func(h *teamv1.TeamHook) { h.TimeoutSeconds = -3 }))},
		{"team_id", func() error {
			_, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{Hook: sampleHook("x.sh")}))
			return err
		}()},
		{"hook", func() error {
			_, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: e.team.ID}))
			return err
		}()},
		{"hook.id", func() error {
			_, err := adm.UpdateHook(ctx, connect.NewRequest(&teamv1.UpdateHookRequest{Hook: sampleHook("x.sh")}))
			return err
		}()},
		{"script_name", func() error {
			h := sampleHook("a/b")
			h.Id = existing.Msg.Hook.Id
			_, err := adm.UpdateHook(ctx, connect.NewRequest(&teamv1.UpdateHookRequest{Hook: h}))
			return err
		}()},
		{"name", func() error {
			_, err := adm.CreateTeam(ctx, connect.NewRequest(&teamv1.CreateTeamRequest{Name: ""}))
			return err
		}()},
		{"role", func() error {
			_, err := adm.CreateToken(ctx, connect.NewRequest(&teamv1.CreateTokenRequest{Name: "x", Role: "owner"}))
			return err
		}()},
		{"team_id", func() error {
			_, err := adm.CreateToken(ctx, connect.NewRequest(&teamv1.CreateTokenRequest{Name: "x", Role: "member"}))
			return err
		}()},
		{"operating_system", func() error {
			_, err := e.hooksClient(e.member, protocols[0]).GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{OperatingSystem: "linux"}))
			return err
		}()},
	}
	for _, c := range cases {
		ce := wantCode(t, c.field, c.err, connect.CodeInvalidArgument)
		if ce != nil && (!strings.HasPrefix(ce.Message(), c.field+": ") || !strings.Contains(ce.Message(), "(fix: ")) {
			t.Errorf("%s: message %q does not name the field and the fix", c.field, ce.Message())
		}
	}
	list, err := adm.ListHooks(ctx, connect.NewRequest(&teamv1.ListHooksRequest{TeamId: e.team.ID}))
	if err != nil || list.Msg.Revision != 1 || len(list.Msg.Hooks) != 1 || list.Msg.Hooks[0].ScriptName != "ok.sh" {
		t.Errorf("after refused changes: %v, %v; want revision 1 and ok.sh alone", list, err)
	}

	// Objects that do not exist, and names taken.
	_, err = adm.SetHookActive(ctx, connect.NewRequest(&teamv1.SetHookActiveRequest{Id: 999}))
	wantCode(t, "missing hook", err, connect.CodeNotFound)
	_, err = adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: 999, Hook: sampleHook("x.sh")}))
	wantCode(t, "missing team", err, connect.CodeNotFound)
	_, err = adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: e.team.ID, Hook: sampleHook("ok.sh")}))
	wantCode(t, "script name taken", err, connect.CodeAlreadyExists)
	_, err = adm.CreateTeam(ctx, connect.NewRequest(&teamv1.CreateTeamRequest{Name: "platform"}))
	wantCode(t, "team name taken", err, connect.CodeAlreadyExists)
}

// TestRequestSizeLimit: a message over the limit is refused before it
// is decoded.
func TestRequestSizeLimit(t *testing.T) {
	e := start(t, backends[0], func(c *Config) { c.MaxScriptBytes, c.MaxRequestBytes = 1<<20, 10<<10 })
	for _, p := range protocols {
		h := sampleHook("big.sh")
		h.ScriptContent = strings.Repeat("x", 20<<10)
		_, err := e.adminClient(e.admin, p).CreateHook(context.Background(), connect.NewRequest(&teamv1.CreateHookRequest{TeamId: e.team.ID, Hook: h}))
		wantCode(t, p.name+": 20 KiB request with a 10 KiB limit", err, connect.CodeResourceExhausted)
	}
	if snap, err := e.store.Hooks(context.Background(), e.team.ID, 0); err != nil || len(snap.Hooks) != 0 {
		t.Errorf("hooks after refused requests: %+v, %v", snap.Hooks, err)
	}
}

// TestGetTeamHooks: revisions, unchanged answers, and the filters.
func TestGetTeamHooks(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		adm := e.adminClient(e.admin, protocols[0])
		hc := e.hooksClient(e.member, protocols[2])
		get := func(req *teamv1.GetTeamHooksRequest) *teamv1.GetTeamHooksResponse {
			t.Helper()
			resp, err := hc.GetTeamHooks(ctx, connect.NewRequest(req))
			if err != nil {
				t.Fatal(err)
			}
			return resp.Msg
		}
		names := func(r *teamv1.GetTeamHooksResponse) []string {
			var out []string
			for _, h := range r.Hooks {
				out = append(out, h.ScriptName)
			}
			return out
		}

		empty := get(&teamv1.GetTeamHooksRequest{})
		if empty.Revision != 0 || len(empty.Hooks) != 0 || empty.Unchanged {
			t.Fatalf("new team: %v", empty)
		}
		var ids []int64
		for _, spec := range []struct {
			name   string
			os     []string
			active bool
		}{{"all.sh", nil, true}, {"linux.sh", []string{"Linux"}, true}, {"win.sh", []string{"Windows"}, true}, {"off.sh", nil, false}} {
			h := sampleHook(spec.name)
			h.OperatingSystems, h.IsActive = spec.os, spec.active
			r, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: e.team.ID, Hook: h}))
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, r.Msg.Hook.Id)
		}
		full := get(&teamv1.GetTeamHooksRequest{})
		if full.Revision != 4 || full.Unchanged || !slices.Equal(names(full), []string{"all.sh", "linux.sh", "win.sh", "off.sh"}) {
			t.Fatalf("all hooks: revision %d, %v", full.Revision, names(full))
		}
		if got := names(get(&teamv1.GetTeamHooksRequest{ActiveOnly: true})); !slices.Equal(got, []string{"all.sh", "linux.sh", "win.sh"}) {
			t.Errorf("active_only: %v", got)
		}
		if got := names(get(&teamv1.GetTeamHooksRequest{ActiveOnly: true, OperatingSystem: "Linux"})); !slices.Equal(got, []string{"all.sh", "linux.sh"}) {
			t.Errorf("active on Linux: %v", got)
		}
		if got := names(get(&teamv1.GetTeamHooksRequest{OperatingSystem: "Windows"})); !slices.Equal(got, []string{"all.sh", "win.sh", "off.sh"}) {
			t.Errorf("on Windows: %v", got)
		}

		same := get(&teamv1.GetTeamHooksRequest{KnownRevision: 4, ActiveOnly: true})
		if !same.Unchanged || len(same.Hooks) != 0 || same.Revision != 4 || same.TeamId != e.team.ID || same.TeamName != "platform" {
			t.Errorf("known current revision: %v", same)
		}
		if stale := get(&teamv1.GetTeamHooksRequest{KnownRevision: 3}); stale.Unchanged || len(stale.Hooks) != 4 {
			t.Errorf("known stale revision: unchanged %v, %d hooks", stale.Unchanged, len(stale.Hooks))
		}

		// Each kind of change moves the revision, so a client polling with
		// its revision sees it.
		steps := []func() (int64, error){
			func() (int64, error) {
				h := sampleHook("all.sh")
				h.Id, h.ScriptContent = ids[0], "echo {}\n"
				r, err := adm.UpdateHook(ctx, connect.NewRequest(&teamv1.UpdateHookRequest{Hook: h}))
				return r.Msg.GetRevision(), err
			},
			func() (int64, error) {
				r, err := adm.SetHookActive(ctx, connect.NewRequest(&teamv1.SetHookActiveRequest{Id: ids[3], Active: true}))
				return r.Msg.GetRevision(), err
			},
			func() (int64, error) {
				r, err := adm.DeleteHook(ctx, connect.NewRequest(&teamv1.DeleteHookRequest{Id: ids[2]}))
				return r.Msg.GetRevision(), err
			},
		}
		known := int64(4)
		for i, step := range steps {
			rev, err := step()
			if err != nil || rev != known+1 {
				t.Fatalf("change %d: revision %d, %v; want %d", i, rev, err, known+1)
			}
			r := get(&teamv1.GetTeamHooksRequest{KnownRevision: known})
			if r.Unchanged || r.Revision != rev {
				t.Fatalf("after change %d: unchanged %v revision %d", i, r.Unchanged, r.Revision)
			}
			known = rev
		}
		final := get(&teamv1.GetTeamHooksRequest{ActiveOnly: true})
		if !slices.Equal(names(final), []string{"all.sh", "linux.sh", "off.sh"}) || final.Hooks[0].ScriptContent != "echo {}\n" {
			t.Errorf("final hooks %v", names(final))
		}

		// Another team's member sees only its own team.
		other, err := adm.CreateTeam(ctx, connect.NewRequest(&teamv1.CreateTeamRequest{Name: "other"}))
		if err != nil {
			t.Fatal(err)
		}
		tok, err := adm.CreateToken(ctx, connect.NewRequest(&teamv1.CreateTokenRequest{Name: "other-member", Role: "member", TeamId: other.Msg.Team.Id}))
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.hooksClient(tok.Msg.Secret, protocols[0]).GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{}))
		if err != nil || r.Msg.TeamId != other.Msg.Team.Id || len(r.Msg.Hooks) != 0 || r.Msg.TeamName != "other" {
			t.Errorf("other team's member: %v, %v", r, err)
		}
	})
}

func TestHistory(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		adm := e.adminClient(e.admin, protocols[0])
		second, err := adm.CreateToken(ctx, connect.NewRequest(&teamv1.CreateTokenRequest{Name: "alice", Role: "admin"}))
		if err != nil {
			t.Fatal(err)
		}
		alice := e.adminClient(second.Msg.Secret, protocols[1])
		h, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: e.team.ID, Hook: sampleHook("a.sh")}))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := alice.SetHookActive(ctx, connect.NewRequest(&teamv1.SetHookActiveRequest{Id: h.Msg.Hook.Id, Active: false})); err != nil {
			t.Fatal(err)
		}
		if _, err := alice.DeleteHook(ctx, connect.NewRequest(&teamv1.DeleteHookRequest{Id: h.Msg.Hook.Id})); err != nil {
			t.Fatal(err)
		}
		hist, err := adm.ListHistory(ctx, connect.NewRequest(&teamv1.ListHistoryRequest{TeamId: e.team.ID}))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range hist.Msg.Changes {
			got = append(got, fmt.Sprintf("%d %s %s %s", c.Revision, c.Action, c.Actor, c.ScriptName))
			if c.HookId != h.Msg.Hook.Id || c.TeamId != e.team.ID || c.AtUnixMs == 0 {
				t.Errorf("change %v", c)
			}
		}
		want := []string{"3 delete alice a.sh", "2 deactivate alice a.sh", "1 create root a.sh"}
		if !slices.Equal(got, want) {
			t.Errorf("history %q, want %q", got, want)
		}
		one, err := adm.ListHistory(ctx, connect.NewRequest(&teamv1.ListHistoryRequest{TeamId: e.team.ID, HookId: h.Msg.Hook.Id, Limit: 1}))
		if err != nil || len(one.Msg.Changes) != 1 || one.Msg.Changes[0].Action != "delete" {
			t.Errorf("limit 1: %v, %v", one, err)
		}
		_, err = adm.ListHistory(ctx, connect.NewRequest(&teamv1.ListHistoryRequest{TeamId: 999}))
		wantCode(t, "history of a missing team", err, connect.CodeNotFound)
	})
}
