package server

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// TestListMachinesPages: machines that synced through the server are
// listed a page at a time through the API, with the team's counts on
// every page, none stale so the latest sync first; a token the server
// did not hand out, or a page too large, is refused naming the field, and
// the token of a listing gone asks for a first page again.
func TestListMachinesPages(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		p := protocols[0]
		for i := range 25 {
			if _, err := e.hooksClient(e.member, p).GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{
				Machine: &teamv1.Machine{Id: fmt.Sprintf("m%02d", i), Hostname: fmt.Sprint("host-", i), Version: "v1", Agents: []string{"claude"}}})); err != nil {
				t.Fatal(err)
			}
		}
		adm := e.adminClient(e.admin, p)
		var ids []string
		token := ""
		for pages := 1; ; pages++ {
			res, err := adm.ListMachines(ctx, connect.NewRequest(&teamv1.ListMachinesRequest{TeamId: e.team.ID, PageSize: 10, PageToken: token}))
			if err != nil {
				t.Fatal(err)
			}
			c := res.Msg.Counts
			if c.GetTotal() != 25 || c.GetStale() != 0 || len(c.GetVersions()) != 1 || c.GetVersions()[0].GetMachines() != 25 ||
				len(c.GetAgents()) != 1 || c.GetAgents()[0].GetName() != "claude" {
				t.Fatalf("page %d: counts %v", pages, c)
			}
			for _, m := range res.Msg.Machines {
				ids = append(ids, m.Machine.Id)
			}
			token = res.Msg.NextPageToken
			if token == "" {
				if pages != 3 {
					t.Fatalf("%d pages of 10 for 25 machines", pages)
				}
				break
			}
		}
		// None stale: the latest sync first.
		if len(ids) != 25 || ids[0] != "m24" || ids[24] != "m00" {
			t.Fatalf("listed %v", ids)
		}
		res, err := adm.ListMachines(ctx, connect.NewRequest(&teamv1.ListMachinesRequest{TeamId: e.team.ID, Prefix: "HOST-2"}))
		if err != nil || len(res.Msg.Machines) != 6 || res.Msg.NextPageToken != "" {
			t.Fatalf("prefix host-2: %v, %v", res, err)
		}
		for _, bad := range []string{"not a token", "bTI6eA", "bTE6Li4vZXRj"} {
			_, err := adm.ListMachines(ctx, connect.NewRequest(&teamv1.ListMachinesRequest{TeamId: e.team.ID, PageToken: bad}))
			wantCode(t, "page token "+bad, err, connect.CodeInvalidArgument)
		}
		_, err = adm.ListMachines(ctx, connect.NewRequest(&teamv1.ListMachinesRequest{TeamId: e.team.ID, PageToken: pageToken(1<<40, 10)}))
		wantCode(t, "the page token of a listing gone", err, connect.CodeFailedPrecondition)
		_, err = adm.ListMachines(ctx, connect.NewRequest(&teamv1.ListMachinesRequest{TeamId: e.team.ID, PageSize: 1001}))
		wantCode(t, "page size 1001", err, connect.CodeInvalidArgument)
	})
}

// failingFleet is a store whose fleet writes fail.
type failingFleet struct{ store.Store }

func (failingFleet) RecordMachines(context.Context, []store.MachineReport) ([]store.MachineReport, error) {
	return nil, errors.New("deadlock detected (SQLSTATE 40P01)")
}

// TestListMachinesSurvivesAFailedFlush: a fleet write that fails before
// a listing is logged and its reports kept; the listing answers with
// what the database holds.
func TestListMachinesSurvivesAFailedFlush(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			e := start(t, b, func(c *Config) { c.Store = failingFleet{c.Store} })
			ctx := context.Background()
			p := protocols[0]
			if _, err := e.store.RecordMachines(ctx, nil); err == nil {
				t.Fatal("the wrapper does not fail")
			}
			if _, err := e.hooksClient(e.member, p).GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{
				Machine: &teamv1.Machine{Id: "m1"}})); err != nil {
				t.Fatal(err)
			}
			res, err := e.adminClient(e.admin, p).ListMachines(ctx, connect.NewRequest(&teamv1.ListMachinesRequest{TeamId: e.team.ID}))
			if err != nil || len(res.Msg.Machines) != 0 || res.Msg.Counts.GetTotal() != 0 {
				t.Fatalf("a listing after a failed flush: %v, %v", res, err)
			}
		})
	}
}

// TestFleetReportUnderAnotherTokensMachine: a member token that reports
// a machine id another token reported first still gets its team's hooks,
// but the fleet keeps the owner's row; its own new machine is listed.
func TestFleetReportUnderAnotherTokensMachine(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		p := protocols[0]
		adm := e.adminClient(e.admin, p)
		if _, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: e.team.ID, Hook: sampleHook("guard.sh")})); err != nil {
			t.Fatal(err)
		}
		other, err := adm.CreateToken(ctx, connect.NewRequest(&teamv1.CreateTokenRequest{Name: "intruder", Role: "member", TeamId: e.team.ID}))
		if err != nil {
			t.Fatal(err)
		}
		fetch := func(secret, id, host string) {
			t.Helper()
			res, err := e.hooksClient(secret, p).GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{
				Machine: &teamv1.Machine{Id: id, Hostname: host, Version: "v1", InstalledRevision: 1}}))
			if err != nil || len(res.Msg.Hooks) != 1 {
				t.Fatalf("%s's fetch as %s: %v, %v", host, id, res, err)
			}
		}
		list := func() map[string]*teamv1.Machine {
			t.Helper()
			res, err := adm.ListMachines(ctx, connect.NewRequest(&teamv1.ListMachinesRequest{TeamId: e.team.ID}))
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]*teamv1.Machine{}
			for _, m := range res.Msg.Machines {
				out[m.Machine.Id] = m.Machine
			}
			return out
		}
		fetch(e.member, "laptop-1", "honest")
		if ms := list(); len(ms) != 1 || ms["laptop-1"].GetHostname() != "honest" {
			t.Fatalf("the owner's machine: %v", ms)
		}
		// In a later flush, and in the same flush as the owner's.
		fetch(other.Msg.Secret, "laptop-1", "spoofed")
		fetch(other.Msg.Secret, "laptop-2", "intruder")
		ms := list()
		if len(ms) != 2 || ms["laptop-1"].GetHostname() != "honest" || ms["laptop-2"].GetHostname() != "intruder" {
			t.Fatalf("after another token's report under laptop-1: %v", ms)
		}
		fetch(e.member, "laptop-1", "honest-again")
		fetch(other.Msg.Secret, "laptop-1", "spoofed")
		if ms := list(); ms["laptop-1"].GetHostname() != "honest-again" {
			t.Fatalf("both tokens in one flush: %v", ms)
		}
	})
}
