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
