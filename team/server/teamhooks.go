package server

import (
	"context"
	"fmt"
	"slices"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

// teamHooks serves members' machines; the member token names the team.
type teamHooks struct {
	s *Server
}

var _ teamv1connect.TeamHooksServiceHandler = (*teamHooks)(nil)

// GetTeamHooks answers with the caller's team's hooks, filtered as asked,
// or only "unchanged" when the caller already has the current revision.
// The revision covers all the team's hooks, whatever the filter, so a
// client must ask with the same filter every time it polls.
func (h *teamHooks) GetTeamHooks(ctx context.Context, req *connect.Request[teamv1.GetTeamHooksRequest]) (*connect.Response[teamv1.GetTeamHooksResponse], error) {
	os := req.Msg.GetOperatingSystem()
	if os != "" && !slices.Contains(store.OperatingSystems, os) {
		return nil, invalid("operating_system", fmt.Sprintf("%q is not an operating system", os), `use "Windows", "Macintosh" or "Linux", or leave it empty for every system's hooks`)
	}
	tok := caller(ctx)
	snap, err := h.s.cfg.Store.Hooks(ctx, tok.TeamID, req.Msg.GetKnownRevision())
	if err != nil {
		return nil, toConnect(h.s.log, req.Spec().Procedure, err)
	}
	resp := &teamv1.GetTeamHooksResponse{
		TeamId:    snap.Team.ID,
		TeamName:  snap.Team.Name,
		Revision:  snap.Team.Revision,
		Unchanged: snap.Unchanged,
		Audit:     snap.Team.Audit,
		Hooks:     []*teamv1.TeamHook{},
	}
	if !snap.Unchanged {
		resp.SandboxJson = snap.Team.SandboxJSON
	}
	if m, ok := machineReport(req.Msg.GetMachine(), tok, time.Now()); ok {
		h.s.fleet.note(m)
	}
	for _, hk := range snap.Hooks {
		if req.Msg.GetActiveOnly() && !hk.Active {
			continue
		}
		if os != "" && len(hk.OperatingSystems) > 0 && !slices.Contains(hk.OperatingSystems, os) {
			continue
		}
		resp.Hooks = append(resp.Hooks, hookToProto(hk))
	}
	return connect.NewResponse(resp), nil
}
