package server

import (
	"context"
	"fmt"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

// SetTeamHooks replaces a team's whole set as one revision; each hook is
// checked as CreateHook checks one, and refused naming its index.
func (a *admin) SetTeamHooks(ctx context.Context, req *connect.Request[teamv1.SetTeamHooksRequest]) (*connect.Response[teamv1.SetTeamHooksResponse], error) {
	if req.Msg.GetTeamId() == 0 {
		return nil, invalid("team_id", "is not set", "give the id of the team (ListTeams shows them)")
	}
	hooks := make([]store.Hook, len(req.Msg.GetHooks()))
	for i, h := range req.Msg.GetHooks() {
		hooks[i] = hookFromProto(h)
		if err := store.ValidateHook(hooks[i], a.s.cfg.MaxScriptBytes); err != nil {
			if ve, ok := err.(*store.ValidationError); ok {
				return nil, invalid(fmt.Sprintf("hooks[%d].%s", i, ve.Field), ve.Problem, ve.Fix)
			}
			return nil, a.fail(req, err)
		}
	}
	snap, changed, err := a.s.cfg.Store.ReplaceHooks(ctx, caller(ctx).Name, req.Msg.GetTeamId(), hooks, req.Msg.GetExpectedRevision())
	if err != nil {
		return nil, a.fail(req, err)
	}
	if changed {
		a.s.log.Info("team hooks replaced", "team", snap.Team.ID, "revision", snap.Team.Revision, "hooks", len(snap.Hooks), "by", caller(ctx).Name)
	}
	return connect.NewResponse(&teamv1.SetTeamHooksResponse{Hooks: hooksToProto(snap.Hooks), Revision: snap.Team.Revision, Changed: changed}), nil
}

// DiffRevision returns what each change of a revision changed.
func (a *admin) DiffRevision(ctx context.Context, req *connect.Request[teamv1.DiffRevisionRequest]) (*connect.Response[teamv1.DiffRevisionResponse], error) {
	if req.Msg.GetTeamId() == 0 {
		return nil, invalid("team_id", "is not set", "give the id of the team (ListTeams shows them)")
	}
	if req.Msg.GetRevision() <= 0 {
		return nil, invalid("revision", "is not set", "give a revision of the team (ListHistory shows them)")
	}
	changes, err := a.s.cfg.Store.RevisionChanges(ctx, req.Msg.GetTeamId(), req.Msg.GetRevision())
	if err != nil {
		return nil, a.fail(req, err)
	}
	resp := &teamv1.DiffRevisionResponse{Changes: make([]*teamv1.RevisionChange, len(changes))}
	for i, c := range changes {
		resp.Changes[i] = &teamv1.RevisionChange{Change: changeToProto(c.Change), BeforeScript: c.Before, AfterScript: c.After,
			BeforeOptions: c.BeforeOptions, AfterOptions: c.AfterOptions, Recorded: c.Recorded}
	}
	return connect.NewResponse(resp), nil
}
