package server

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

// ListMachines answers one page of the fleet and the team's counts. It
// writes this replica's pending reports first, so that a machine that
// just synced through it is listed; a failed write is logged and the
// listing goes on with what the database holds (the reports wait for
// the next write).
func (a *admin) ListMachines(ctx context.Context, req *connect.Request[teamv1.ListMachinesRequest]) (*connect.Response[teamv1.ListMachinesResponse], error) {
	m := req.Msg
	if m.GetTeamId() == 0 {
		return nil, invalid("team_id", "is not set", "give the id of the team (ListTeams shows them)")
	}
	if m.GetPageSize() < 0 || m.GetPageSize() > store.MaxMachinePage {
		return nil, invalid("page_size", "is not from 0 to 1000", "ask for at most 1000 machines a page, or 0 for 100")
	}
	listing, offset, ok := parsePageToken(m.GetPageToken())
	if !ok {
		return nil, invalid("page_token", "is not a token this server handed out", "send the next_page_token of the previous answer, or none for the first page")
	}
	t, err := a.s.cfg.Store.Team(ctx, m.GetTeamId())
	if err != nil {
		return nil, a.fail(req, err)
	}
	if err := a.s.fleet.flush(ctx); err != nil {
		if ctx.Err() != nil {
			// The caller left: the write was cut short with its request,
			// which is no failure of the server's (the reports are kept).
			a.s.log.Debug("machines' reports not recorded: the listing's caller left; they are kept for the next try", "err", err)
			return nil, connect.NewError(connect.CodeCanceled, ctx.Err())
		}
		a.s.log.Warn("could not record machines' reports before listing them; they are kept for the next try", "err", err)
	}
	now := time.Now()
	staleBefore := now.Add(-StaleAfter).UnixMilli()
	// The counts and the page are two reads of their own: at once, each
	// on a connection (and a core) of its own.
	var counts store.FleetCounts
	var countErr error
	counted := make(chan struct{})
	go func() {
		defer close(counted)
		counts, countErr = a.s.cfg.Store.CountMachines(ctx, t.ID, t.Revision, staleBefore)
	}()
	page, err := a.s.cfg.Store.ListMachines(ctx, store.MachineQuery{
		TeamID: t.ID, Revision: t.Revision, StaleBeforeMs: staleBefore,
		StaleOnly: m.GetStaleOnly(), BehindOnly: m.GetBehindOnly(),
		Prefix: cleanText(m.GetPrefix(), 255, false), Version: cleanText(m.GetVersion(), 64, false),
		Listing: listing, Offset: offset, Limit: int(m.GetPageSize()),
	})
	<-counted
	if err != nil {
		return nil, a.fail(req, err)
	}
	if countErr != nil {
		return nil, a.fail(req, countErr)
	}
	resp := &teamv1.ListMachinesResponse{Revision: t.Revision, Machines: make([]*teamv1.MachineStatus, len(page.Machines)),
		NextPageToken: pageToken(page.Listing, page.Next), Counts: countsToProto(counts)}
	for i, ms := range page.Machines {
		resp.Machines[i] = machineStatus(ms, t.Revision, now)
	}
	return connect.NewResponse(resp), nil
}

// pageTokenPrefix versions the fleet's page tokens: a later order can
// refuse an older token rather than misread it (m1: paged by machine id).
const pageTokenPrefix = "m2:"

// pageToken is the opaque token of the page at offset of a listing; ""
// when there is none.
func pageToken(listing int64, offset int) string {
	if listing == 0 || offset <= 0 {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "%s%d:%d", pageTokenPrefix, listing, offset))
}

// parsePageToken reads a token pageToken made: the listing and the
// offset of the page (0, 0 for a first page).
func parsePageToken(tok string) (int64, int, bool) {
	if tok == "" {
		return 0, 0, true
	}
	raw, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		return 0, 0, false
	}
	rest, ok := strings.CutPrefix(string(raw), pageTokenPrefix)
	l, o, ok2 := strings.Cut(rest, ":")
	listing, err1 := strconv.ParseInt(l, 10, 64)
	offset, err2 := strconv.Atoi(o)
	if !ok || !ok2 || err1 != nil || err2 != nil || listing <= 0 || offset <= 0 {
		return 0, 0, false
	}
	return listing, offset, true
}

func countsToProto(c store.FleetCounts) *teamv1.FleetCounts {
	names := func(ns []store.NameCount) []*teamv1.NameCount {
		out := make([]*teamv1.NameCount, len(ns))
		for i, n := range ns {
			out[i] = &teamv1.NameCount{Name: n.Name, Machines: n.Machines}
		}
		return out
	}
	return &teamv1.FleetCounts{Total: c.Total, Stale: c.Stale, Behind: c.Behind, Versions: names(c.Versions), Agents: names(c.Agents)}
}
