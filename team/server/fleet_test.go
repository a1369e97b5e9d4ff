package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/teamv1"
)

// TestFleetReports: what a machine says of itself is bounded and made
// printable before an administrator reads it; a report without a usable
// id is ignored (the fetch still answers); the reports held in memory
// are written when the server stops.
func TestFleetReports(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		p := protocols[0]
		fetch := func(m *teamv1.Machine) {
			t.Helper()
			if _, err := e.hooksClient(e.member, p).GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{Machine: m})); err != nil {
				t.Fatal(err)
			}
		}
		fetch(&teamv1.Machine{Id: "../../etc", Hostname: "x"})
		fetch(&teamv1.Machine{Id: strings.Repeat("a", 65)})
		fetch(&teamv1.Machine{Id: "good-1", Hostname: "evil\x1b[31mhost\n" + strings.Repeat("h", 300), Os: "TempleOS",
			Version: strings.Repeat("v", 100), InstalledRevision: -5, Agents: []string{"claude", "Bad Agent", "claude", "codex"}})
		list, err := e.adminClient(e.admin, p).ListMachines(ctx, connect.NewRequest(&teamv1.ListMachinesRequest{TeamId: e.team.ID}))
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Msg.Machines) != 1 {
			t.Fatalf("machines %v: want only the one with a usable id", list.Msg.Machines)
		}
		m := list.Msg.Machines[0].Machine
		if m.Id != "good-1" || strings.ContainsAny(m.Hostname, "\x1b\n") || !strings.HasPrefix(m.Hostname, "evil[31mhost") || len(m.Hostname) > 255 ||
			m.Os != "" || len(m.Version) > 64 || m.InstalledRevision != 0 || strings.Join(m.Agents, ",") != "claude,codex" {
			t.Errorf("stored report %+v", m)
		}
		if list.Msg.Machines[0].Stale || list.Msg.Machines[0].Behind != 0 {
			t.Errorf("a machine that just synced a team at revision 0: %+v", list.Msg.Machines[0])
		}

		// A member cannot read the fleet; an admin cannot upload.
		_, err = e.adminClient(e.member, p).ListMachines(ctx, connect.NewRequest(&teamv1.ListMachinesRequest{TeamId: e.team.ID}))
		wantCode(t, "member lists machines", err, connect.CodePermissionDenied)
		_, err = e.hooksClient(e.admin, p).UploadDecisions(ctx, connect.NewRequest(&teamv1.UploadDecisionsRequest{Machine: &teamv1.Machine{Id: "m"}}))
		wantCode(t, "admin uploads", err, connect.CodePermissionDenied)

		// The last reports are written at shutdown.
		fetch(&teamv1.Machine{Id: "late-1", Hostname: "late"})
		if err := e.stop(); err != nil {
			t.Fatal(err)
		}
		ms, err := e.store.Machines(ctx, e.team.ID)
		if err != nil || len(ms) != 2 {
			t.Fatalf("after shutdown the store holds %+v, %v", ms, err)
		}
	})
}

// TestUploadDecisions: refused while the team's audit is off, in words
// that say so; bounded; each decision kept once; what is stored is made
// printable.
func TestUploadDecisions(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		p := protocols[0]
		up := func(ds ...*teamv1.Decision) (*connect.Response[teamv1.UploadDecisionsResponse], error) {
			return e.hooksClient(e.member, p).UploadDecisions(ctx, connect.NewRequest(&teamv1.UploadDecisionsRequest{
				Machine: &teamv1.Machine{Id: "m1", Hostname: "laptop"}, Decisions: ds}))
		}
		one := &teamv1.Decision{Id: "r1", AtUnixMs: time.Now().UnixMilli(), Step: "beforeShellExecution", Outcome: "deny", What: "git push\x1b]0;x\x07", ScriptName: "guard.sh"}
		_, err := up(one)
		if ce := wantCode(t, "upload with the audit off", err, connect.CodeFailedPrecondition); ce != nil && !strings.Contains(ce.Message(), "audit is off") {
			t.Errorf("message %q", ce.Message())
		}
		if _, err := e.store.SetTeamAudit(ctx, e.team.ID, true, 0); err != nil {
			t.Fatal(err)
		}
		_, err = e.hooksClient(e.member, p).UploadDecisions(ctx, connect.NewRequest(&teamv1.UploadDecisionsRequest{Decisions: []*teamv1.Decision{one}}))
		wantCode(t, "upload without a machine", err, connect.CodeInvalidArgument)
		_, err = up(&teamv1.Decision{Id: ""})
		wantCode(t, "decision without an id", err, connect.CodeInvalidArgument)
		many := make([]*teamv1.Decision, maxDecisionsPerUpload+1)
		for i := range many {
			many[i] = one
		}
		_, err = up(many...)
		wantCode(t, "too many decisions", err, connect.CodeInvalidArgument)
		for _, want := range []int32{1, 0} {
			res, err := up(one)
			if err != nil || res.Msg.Accepted != want {
				t.Fatalf("upload: %v, %v; want %d accepted", res, err, want)
			}
		}
		got, err := e.adminClient(e.admin, p).ListDecisions(ctx, connect.NewRequest(&teamv1.ListDecisionsRequest{TeamId: e.team.ID}))
		if err != nil || len(got.Msg.Decisions) != 1 {
			t.Fatalf("ListDecisions: %v, %v", got, err)
		}
		if d := got.Msg.Decisions[0]; d.MachineId != "m1" || d.Hostname != "laptop" || d.What != "git push]0;x" {
			t.Errorf("stored decision %+v", d)
		}
	})
}
