package server

import (
	"context"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

// admin serves administrators. Every change is made in the store's name
// of the calling admin token, which the history shows.
type admin struct {
	s *Server
}

var _ teamv1connect.AdminServiceHandler = (*admin)(nil)

func (a *admin) fail(req connect.AnyRequest, err error) error {
	return toConnect(a.s.log, req.Spec().Procedure, err)
}

func (a *admin) CreateTeam(ctx context.Context, req *connect.Request[teamv1.CreateTeamRequest]) (*connect.Response[teamv1.CreateTeamResponse], error) {
	t, err := a.s.cfg.Store.CreateTeam(ctx, req.Msg.GetName())
	if err != nil {
		return nil, a.fail(req, err)
	}
	return connect.NewResponse(&teamv1.CreateTeamResponse{Team: teamToProto(t)}), nil
}

func (a *admin) ListTeams(ctx context.Context, req *connect.Request[teamv1.ListTeamsRequest]) (*connect.Response[teamv1.ListTeamsResponse], error) {
	teams, err := a.s.cfg.Store.ListTeams(ctx)
	if err != nil {
		return nil, a.fail(req, err)
	}
	resp := &teamv1.ListTeamsResponse{Teams: make([]*teamv1.Team, len(teams))}
	for i, t := range teams {
		resp.Teams[i] = teamToProto(t)
	}
	return connect.NewResponse(resp), nil
}

func (a *admin) CreateHook(ctx context.Context, req *connect.Request[teamv1.CreateHookRequest]) (*connect.Response[teamv1.CreateHookResponse], error) {
	if req.Msg.GetTeamId() == 0 {
		return nil, invalid("team_id", "is not set", "give the id of the team the hook is for (ListTeams shows them)")
	}
	if req.Msg.GetHook() == nil {
		return nil, invalid("hook", "is not set", "give the hook: hook_step, script_name, script_content and its options")
	}
	h := hookFromProto(req.Msg.GetHook())
	if err := store.ValidateHook(h, a.s.cfg.MaxScriptBytes); err != nil {
		return nil, a.fail(req, err)
	}
	h, rev, err := a.s.cfg.Store.CreateHook(ctx, caller(ctx).Name, req.Msg.GetTeamId(), h)
	if err != nil {
		return nil, a.fail(req, err)
	}
	return connect.NewResponse(&teamv1.CreateHookResponse{Hook: hookToProto(h), Revision: rev}), nil
}

func (a *admin) UpdateHook(ctx context.Context, req *connect.Request[teamv1.UpdateHookRequest]) (*connect.Response[teamv1.UpdateHookResponse], error) {
	if req.Msg.GetHook().GetId() == 0 {
		return nil, invalid("hook.id", "is not set", "give the id of the hook to replace (ListHooks shows them)")
	}
	h := hookFromProto(req.Msg.GetHook())
	if err := store.ValidateHook(h, a.s.cfg.MaxScriptBytes); err != nil {
		return nil, a.fail(req, err)
	}
	h, rev, err := a.s.cfg.Store.UpdateHook(ctx, caller(ctx).Name, h)
	if err != nil {
		return nil, a.fail(req, err)
	}
	return connect.NewResponse(&teamv1.UpdateHookResponse{Hook: hookToProto(h), Revision: rev}), nil
}

func (a *admin) SetHookActive(ctx context.Context, req *connect.Request[teamv1.SetHookActiveRequest]) (*connect.Response[teamv1.SetHookActiveResponse], error) {
	if req.Msg.GetId() == 0 {
		return nil, invalid("id", "is not set", "give the id of the hook (ListHooks shows them)")
	}
	h, rev, err := a.s.cfg.Store.SetHookActive(ctx, caller(ctx).Name, req.Msg.GetId(), req.Msg.GetActive())
	if err != nil {
		return nil, a.fail(req, err)
	}
	return connect.NewResponse(&teamv1.SetHookActiveResponse{Hook: hookToProto(h), Revision: rev}), nil
}

func (a *admin) DeleteHook(ctx context.Context, req *connect.Request[teamv1.DeleteHookRequest]) (*connect.Response[teamv1.DeleteHookResponse], error) {
	if req.Msg.GetId() == 0 {
		return nil, invalid("id", "is not set", "give the id of the hook (ListHooks shows them)")
	}
	rev, err := a.s.cfg.Store.DeleteHook(ctx, caller(ctx).Name, req.Msg.GetId())
	if err != nil {
		return nil, a.fail(req, err)
	}
	return connect.NewResponse(&teamv1.DeleteHookResponse{Revision: rev}), nil
}

func (a *admin) ListHooks(ctx context.Context, req *connect.Request[teamv1.ListHooksRequest]) (*connect.Response[teamv1.ListHooksResponse], error) {
	if req.Msg.GetTeamId() == 0 {
		return nil, invalid("team_id", "is not set", "give the id of the team (ListTeams shows them)")
	}
	snap, err := a.s.cfg.Store.Hooks(ctx, req.Msg.GetTeamId(), 0)
	if err != nil {
		return nil, a.fail(req, err)
	}
	resp := &teamv1.ListHooksResponse{Hooks: hooksToProto(snap.Hooks), Revision: snap.Team.Revision}
	for _, b := range store.HookBreaches(snap.Team, snap.Hooks, a.s.cfg.MaxScriptBytes) {
		resp.Problems = append(resp.Problems, &teamv1.HookProblem{HookId: b.HookID, Field: b.Field, Problem: b.Problem})
	}
	return connect.NewResponse(resp), nil
}

func (a *admin) ListHistory(ctx context.Context, req *connect.Request[teamv1.ListHistoryRequest]) (*connect.Response[teamv1.ListHistoryResponse], error) {
	changes, err := a.s.cfg.Store.History(ctx, store.HistoryFilter{
		TeamID: req.Msg.GetTeamId(), HookID: req.Msg.GetHookId(), Limit: int(req.Msg.GetLimit()),
	})
	if err != nil {
		return nil, a.fail(req, err)
	}
	resp := &teamv1.ListHistoryResponse{Changes: make([]*teamv1.HookChange, len(changes))}
	for i, c := range changes {
		resp.Changes[i] = changeToProto(c)
	}
	return connect.NewResponse(resp), nil
}

func (a *admin) CreateToken(ctx context.Context, req *connect.Request[teamv1.CreateTokenRequest]) (*connect.Response[teamv1.CreateTokenResponse], error) {
	role, err := store.ParseRole(req.Msg.GetRole())
	if err != nil {
		return nil, a.fail(req, err)
	}
	t, secret, err := a.s.cfg.Store.CreateToken(ctx, req.Msg.GetName(), role, req.Msg.GetTeamId())
	if err != nil {
		return nil, a.fail(req, err)
	}
	a.s.log.Info("token created", "token", t.Name, "id", t.ID, "role", t.Role, "team", t.TeamID, "by", caller(ctx).Name)
	return connect.NewResponse(&teamv1.CreateTokenResponse{Token: tokenToProto(t), Secret: secret}), nil
}

func (a *admin) ListTokens(ctx context.Context, req *connect.Request[teamv1.ListTokensRequest]) (*connect.Response[teamv1.ListTokensResponse], error) {
	tokens, err := a.s.cfg.Store.ListTokens(ctx, req.Msg.GetTeamId())
	if err != nil {
		return nil, a.fail(req, err)
	}
	resp := &teamv1.ListTokensResponse{Tokens: make([]*teamv1.Token, len(tokens))}
	for i, t := range tokens {
		resp.Tokens[i] = tokenToProto(t)
	}
	return connect.NewResponse(resp), nil
}

func (a *admin) RevokeToken(ctx context.Context, req *connect.Request[teamv1.RevokeTokenRequest]) (*connect.Response[teamv1.RevokeTokenResponse], error) {
	if req.Msg.GetId() == 0 {
		return nil, invalid("id", "is not set", "give the id of the token (ListTokens shows them)")
	}
	if err := a.s.cfg.Store.RevokeToken(ctx, req.Msg.GetId()); err != nil {
		return nil, a.fail(req, err)
	}
	a.s.log.Info("token revoked", "id", req.Msg.GetId(), "by", caller(ctx).Name)
	return connect.NewResponse(&teamv1.RevokeTokenResponse{}), nil
}
