package server

import (
	"context"
	"fmt"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

// Bounds of an upload of decisions.
const (
	maxDecisionsPerUpload = 500
	maxDecisionText       = 4096
	// maxAhead is how far ahead of the server's clock a decision may be
	// dated: clocks drift, but no further.
	maxAhead = 5 * time.Minute
	// maxRefusals is how many refusals an answer explains.
	maxRefusals = 10
)

// UploadDecisions stores a batch of a member machine's decisions, if the
// member's team turned its audit on.
func (h *teamHooks) UploadDecisions(ctx context.Context, req *connect.Request[teamv1.UploadDecisionsRequest]) (*connect.Response[teamv1.UploadDecisionsResponse], error) {
	tok := caller(ctx)
	now := time.Now()
	if !h.s.uploads.allow(tok.ID, now) {
		return nil, connect.NewError(connect.CodeResourceExhausted, fmt.Errorf("token %q sends more than %g uploads a second: wait a little and send again (agenthooks sync keeps the decisions for its next sync)", tok.Name, h.s.cfg.UploadRate))
	}
	m, ok := machineReport(req.Msg.GetMachine(), tok, now)
	if !ok {
		return nil, invalid("machine.id", "is missing or not 1 to 64 letters, digits, - or _", "send the id the machine keeps (agenthooks sync does)")
	}
	if n := len(req.Msg.GetDecisions()); n > maxDecisionsPerUpload {
		return nil, invalid("decisions", fmt.Sprintf("%d decisions in one upload, over %d", n, maxDecisionsPerUpload), "send them in batches")
	}
	t, err := h.s.cfg.Store.Team(ctx, tok.TeamID)
	if err != nil {
		return nil, toConnect(h.s.log, req.Spec().Procedure, err)
	}
	cutoff, ahead := store.RetentionCutoff(t, now), now.Add(maxAhead).UnixMilli()
	resp := &teamv1.UploadDecisionsResponse{}
	refuse := func(i int, why string) {
		resp.Refused++
		if len(resp.Refusals) < maxRefusals {
			resp.Refusals = append(resp.Refusals, fmt.Sprintf("decisions[%d].at_unix_ms: %s", i, why))
		}
	}
	ds := make([]store.Decision, 0, len(req.Msg.GetDecisions()))
	for i, d := range req.Msg.GetDecisions() {
		if !machineIDRE().MatchString(d.GetId()) {
			return nil, invalid(fmt.Sprintf("decisions[%d].id", i), "is missing or not 1 to 64 letters, digits, - or _", "send the record's id")
		}
		// The server's time orders the audit; the member's is kept beside
		// it, within bounds: not ahead of the server (a decision from the
		// future would stay on top and outlive the retention), not before
		// the retention (it would be pruned at once).
		switch at := d.GetAtUnixMs(); {
		case at > ahead:
			refuse(i, fmt.Sprintf("%s is more than %v ahead of the server's clock (%s)", time.UnixMilli(at).UTC().Format(time.RFC3339), maxAhead, now.UTC().Format(time.RFC3339)))
			continue
		case at < cutoff:
			refuse(i, fmt.Sprintf("%s is before the team's retention of %d days", time.UnixMilli(at).UTC().Format(time.RFC3339), (now.UnixMilli()-cutoff)/(24*3600*1000)))
			continue
		}
		ds = append(ds, store.Decision{
			TokenID:        tok.ID,
			MachineID:      m.MachineID,
			Hostname:       m.Hostname,
			RecordID:       d.GetId(),
			AtMs:           d.GetAtUnixMs(),
			Step:           cleanText(d.GetStep(), 64, false),
			Outcome:        cleanText(d.GetOutcome(), 32, false),
			Decision:       cleanText(d.GetDecision(), 32, false),
			ScriptName:     cleanText(d.GetScriptName(), store.ScriptNameMax, false),
			Agent:          cleanText(d.GetAgent(), 32, false),
			ConversationID: cleanText(d.GetConversationId(), 128, false),
			What:           cleanText(d.GetWhat(), maxDecisionText, true),
			Message:        cleanText(d.GetMessage(), maxDecisionText, true),
		})
	}
	// The machine is not noted for the fleet here: GetTeamHooks, in the
	// same sync, reports it with its installed revision.
	if resp.Refused > 0 {
		h.s.log.Debug("decisions refused", "token", tok.Name, "machine", m.MachineID, "refused", resp.Refused, "first", resp.Refusals[0])
	}
	if len(ds) == 0 && !t.Audit {
		return nil, toConnect(h.s.log, req.Spec().Procedure, fmt.Errorf("team %d: %w", t.ID, store.ErrAuditOff))
	}
	if len(ds) > 0 {
		n, err := h.s.cfg.Store.AddDecisions(ctx, tok.TeamID, ds)
		if err != nil {
			return nil, toConnect(h.s.log, req.Spec().Procedure, err)
		}
		resp.Accepted = int32(n)
	}
	return connect.NewResponse(resp), nil
}

func (a *admin) SetTeamAudit(ctx context.Context, req *connect.Request[teamv1.SetTeamAuditRequest]) (*connect.Response[teamv1.SetTeamAuditResponse], error) {
	if req.Msg.GetTeamId() == 0 {
		return nil, invalid("team_id", "is not set", "give the id of the team (ListTeams shows them)")
	}
	t, err := a.s.cfg.Store.SetTeamAudit(ctx, req.Msg.GetTeamId(), req.Msg.GetAudit(), int(req.Msg.GetAuditRetentionDays()))
	if err != nil {
		return nil, a.fail(req, err)
	}
	// A shorter retention hides the older decisions at once; the
	// pruner deletes them now, in the background.
	a.s.pruner.nudge()
	return connect.NewResponse(&teamv1.SetTeamAuditResponse{Team: teamToProto(t)}), nil
}

func (a *admin) SetTeamSandbox(ctx context.Context, req *connect.Request[teamv1.SetTeamSandboxRequest]) (*connect.Response[teamv1.SetTeamSandboxResponse], error) {
	if req.Msg.GetTeamId() == 0 {
		return nil, invalid("team_id", "is not set", "give the id of the team (ListTeams shows them)")
	}
	t, rev, err := a.s.cfg.Store.SetTeamSandbox(ctx, caller(ctx).Name, req.Msg.GetTeamId(), req.Msg.GetSandboxJson())
	if err != nil {
		return nil, a.fail(req, err)
	}
	return connect.NewResponse(&teamv1.SetTeamSandboxResponse{Team: teamToProto(t), Revision: rev}), nil
}

func (a *admin) ListDecisions(ctx context.Context, req *connect.Request[teamv1.ListDecisionsRequest]) (*connect.Response[teamv1.ListDecisionsResponse], error) {
	m := req.Msg
	if m.GetTeamId() == 0 {
		return nil, invalid("team_id", "is not set", "give the id of the team (ListTeams shows them)")
	}
	if _, err := a.s.cfg.Store.Team(ctx, m.GetTeamId()); err != nil {
		return nil, a.fail(req, err)
	}
	ds, err := a.s.cfg.Store.Decisions(ctx, store.DecisionFilter{
		TeamID: m.GetTeamId(), ScriptName: m.GetScriptName(), MachineID: m.GetMachineId(), Agent: m.GetAgent(), TokenID: m.GetTokenId(),
		Step: m.GetStep(), SinceMs: m.GetSinceUnixMs(), UntilMs: m.GetUntilUnixMs(), Limit: int(m.GetLimit()),
	})
	if err != nil {
		return nil, a.fail(req, err)
	}
	resp := &teamv1.ListDecisionsResponse{Decisions: make([]*teamv1.Decision, len(ds))}
	for i, d := range ds {
		resp.Decisions[i] = &teamv1.Decision{Id: d.RecordID, AtUnixMs: d.AtMs, Step: d.Step, Outcome: d.Outcome, Decision: d.Decision,
			ScriptName: d.ScriptName, Agent: d.Agent, ConversationId: d.ConversationID, What: d.What, Message: d.Message,
			MachineId: d.MachineID, Hostname: d.Hostname, ReceivedAtUnixMs: d.ReceivedAtMs, TokenId: d.TokenID}
	}
	return connect.NewResponse(resp), nil
}
