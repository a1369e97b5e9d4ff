package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestMachines: a machine's row is replaced by its newer reports and
// never by an older one (a slower replica's); reports for a team that
// does not exist are dropped.
func TestMachines(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team := mustTeam(t, s, "platform")
		r := MachineReport{TeamID: team.ID, MachineID: "m1", Hostname: "laptop", OS: "Linux", Version: "v1",
			InstalledRevision: 3, Agents: []string{"claude", "codex"}, TokenName: "laptops", LastSyncMs: 2000}
		older := r
		older.InstalledRevision, older.LastSyncMs = 2, 1000
		ghost := r
		ghost.TeamID = team.ID + 100
		for _, batch := range [][]MachineReport{{r}, {older}, {ghost}} {
			if _, err := s.RecordMachines(ctx, batch); err != nil {
				t.Fatal(err)
			}
		}
		ms, err := s.Machines(ctx, team.ID)
		if err != nil || len(ms) != 1 || ms[0].InstalledRevision != 3 || ms[0].LastSyncMs != 2000 || !slices.Equal(ms[0].Agents, r.Agents) {
			t.Fatalf("machines %+v, %v", ms, err)
		}
		newer := r
		newer.InstalledRevision, newer.LastSyncMs, newer.Agents = 4, 3000, nil
		if _, err := s.RecordMachines(ctx, []MachineReport{newer}); err != nil {
			t.Fatal(err)
		}
		if ms, err = s.Machines(ctx, team.ID); err != nil || len(ms) != 1 || ms[0].InstalledRevision != 4 || ms[0].Agents != nil {
			t.Fatalf("after a newer report: %+v, %v", ms, err)
		}
		if ms, err := s.Machines(ctx, ghost.TeamID); err != nil || len(ms) != 0 {
			t.Fatalf("a report for no team was kept: %+v, %v", ms, err)
		}
	})
}

// TestDecisions: refused while the team's audit is off; each (machine,
// record) stored once however often it is sent; filtered; pruned past
// the team's retention.
func TestDecisions(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team := mustTeam(t, s, "platform")
		now := time.Now().UnixMilli()
		d := func(machine, rec, agent string, age time.Duration) Decision {
			return Decision{MachineID: machine, Hostname: machine + ".local", RecordID: rec, AtMs: now - age.Milliseconds(),
				Step: "beforeShellExecution", Outcome: "deny", Decision: "deny", ScriptName: "guard.sh", Agent: agent, What: "git push"}
		}
		batch := []Decision{d("m1", "r1", "claude", time.Minute), d("m1", "r2", "codex", time.Hour), d("m2", "r1", "claude", 0)}
		if _, err := s.AddDecisions(ctx, team.ID, batch); !errors.Is(err, ErrAuditOff) {
			t.Fatalf("decisions for a team whose audit is off: %v", err)
		}
		if _, err := s.SetTeamAudit(ctx, team.ID, true, -1); err == nil {
			t.Fatal("a negative retention was accepted")
		}
		tm, err := s.SetTeamAudit(ctx, team.ID, true, 7)
		if err != nil || !tm.Audit || tm.AuditRetentionDays != 7 {
			t.Fatalf("SetTeamAudit: %+v, %v", tm, err)
		}
		if got, _ := s.Team(ctx, team.ID); !got.Audit {
			t.Fatal("the team does not read back with its audit on")
		}
		for want := range []int{3, 0} {
			n, err := s.AddDecisions(ctx, team.ID, batch)
			if err != nil || n != []int{3, 0}[want] {
				t.Fatalf("upload %d: %d new, %v", want+1, n, err)
			}
		}
		all, err := s.Decisions(ctx, DecisionFilter{TeamID: team.ID})
		if err != nil || len(all) != 3 || all[0].MachineID != "m2" || all[2].RecordID != "r2" {
			t.Fatalf("decisions, newest first: %+v, %v", all, err)
		}
		for _, c := range []struct {
			f    DecisionFilter
			want int
		}{
			{DecisionFilter{TeamID: team.ID, MachineID: "m1"}, 2},
			{DecisionFilter{TeamID: team.ID, Agent: "codex"}, 1},
			{DecisionFilter{TeamID: team.ID, Step: "stop"}, 0},
			{DecisionFilter{TeamID: team.ID, ScriptName: "guard.sh", SinceMs: now - (30 * time.Minute).Milliseconds()}, 2},
			{DecisionFilter{TeamID: team.ID, UntilMs: now - (30 * time.Minute).Milliseconds()}, 1},
			{DecisionFilter{TeamID: team.ID, Limit: 1}, 1},
		} {
			if got, err := s.Decisions(ctx, c.f); err != nil || len(got) != c.want {
				t.Errorf("filter %+v: %d decisions, want %d (%v)", c.f, len(got), c.want, err)
			}
		}
		// One past the retention of 7 days is not kept.
		if _, err := s.AddDecisions(ctx, team.ID, []Decision{d("m3", "old", "claude", 8*24*time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Decisions(ctx, DecisionFilter{TeamID: team.ID, MachineID: "m3"}); len(got) != 0 {
			t.Errorf("a decision past the retention is kept: %+v", got)
		}
		// A shorter retention prunes what it no longer covers.
		if _, err := s.SetTeamAudit(ctx, team.ID, true, 30); err != nil {
			t.Fatal(err)
		}
		if n, err := s.AddDecisions(ctx, team.ID, []Decision{d("m4", "old", "claude", 8*24*time.Hour)}); err != nil || n != 1 {
			t.Fatalf("an 8-day-old decision under a 30-day retention: %d, %v", n, err)
		}
		if _, err := s.SetTeamAudit(ctx, team.ID, true, 7); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddDecisions(ctx, team.ID, []Decision{d("m5", "new", "claude", 0)}); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Decisions(ctx, DecisionFilter{TeamID: team.ID, MachineID: "m4"}); len(got) != 0 {
			t.Errorf("a decision past the new retention is kept: %+v", got)
		}
		if _, err := s.SetTeamAudit(ctx, team.ID, false, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddDecisions(ctx, team.ID, batch); !errors.Is(err, ErrAuditOff) {
			t.Fatalf("decisions after the audit was turned off: %v", err)
		}
	})
}

// TestTeamSandbox: a team's sandbox.json is checked by the sandbox's own
// parser (the field as a JSON pointer, the parser's fix), and setting it
// is a change of the team: a new revision and a history entry.
func TestTeamSandbox(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team := mustTeam(t, s, "platform")
		_, _, err := s.SetTeamSandbox(ctx, "alice", team.ID, `{"type":"workspace_sometimes"}`)
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Field != "sandbox_json/type" || ve.Fix == "" {
			t.Fatalf("a bad type: %v", err)
		}
		const good = `{"networkPolicy":{"default":"deny"}}`
		tm, rev, err := s.SetTeamSandbox(ctx, "alice", team.ID, good)
		if err != nil || rev != 1 || tm.SandboxJSON != good || tm.Revision != 1 {
			t.Fatalf("SetTeamSandbox: %+v, %d, %v", tm, rev, err)
		}
		snap, err := s.Hooks(ctx, team.ID, 0)
		if err != nil || snap.Team.SandboxJSON != good {
			t.Fatalf("the team's snapshot: %+v, %v", snap.Team, err)
		}
		hist, err := s.History(ctx, HistoryFilter{TeamID: team.ID})
		if err != nil || len(hist) != 1 || hist[0].Action != ActionSandbox || hist[0].ScriptName != "sandbox.json" || hist[0].Revision != 1 {
			t.Fatalf("history %+v, %v", hist, err)
		}
		if tm, _, err := s.SetTeamSandbox(ctx, "alice", team.ID, ""); err != nil || tm.SandboxJSON != "" || tm.Revision != 2 {
			t.Fatalf("removing the sandbox: %+v, %v", tm, err)
		}
		if _, _, err := s.CreateHook(ctx, "alice", team.ID, sampleHook("sandbox.json")); err == nil {
			t.Fatal("a hook took the sandbox's file name")
		}
	})
}

// TestMachinesBoundToToken: the first token to report a machine id owns
// it, for the fleet as for the audit: another token's report under that
// id, alone or in the same batch, is returned as refused and does not
// change the row; its own new machine id is recorded; a report without
// a token is not checked.
func TestMachinesBoundToToken(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team := mustTeam(t, s, "platform")
		const alice, mallory = 11, 12
		owned := MachineReport{TeamID: team.ID, MachineID: "m1", Hostname: "alice-laptop", OS: "Linux", Version: "v1",
			InstalledRevision: 3, TokenName: "alice", TokenID: alice, LastSyncMs: 1000}
		if refused, err := s.RecordMachines(ctx, []MachineReport{owned}); err != nil || len(refused) != 0 {
			t.Fatalf("the first report: refused %+v, %v", refused, err)
		}
		spoof := MachineReport{TeamID: team.ID, MachineID: "m1", Hostname: "spoofed", OS: "Windows", Version: "v0",
			InstalledRevision: 9, TokenName: "mallory", TokenID: mallory, LastSyncMs: 5000}
		own := MachineReport{TeamID: team.ID, MachineID: "m2", Hostname: "mallory-laptop", OS: "Linux", Version: "v1",
			InstalledRevision: 1, TokenName: "mallory", TokenID: mallory, LastSyncMs: 5000}
		later := owned
		later.InstalledRevision, later.LastSyncMs = 4, 2000
		refused, err := s.RecordMachines(ctx, []MachineReport{own, spoof, later})
		if err != nil || len(refused) != 1 || refused[0].MachineID != "m1" || refused[0].TokenID != mallory {
			t.Fatalf("a report under another token's machine id: refused %+v, %v", refused, err)
		}
		if refused, err := s.RecordMachines(ctx, []MachineReport{spoof}); err != nil || len(refused) != 1 {
			t.Fatalf("the report alone: refused %+v, %v", refused, err)
		}
		ms, err := s.Machines(ctx, team.ID)
		if err != nil || len(ms) != 2 {
			t.Fatalf("machines %+v, %v", ms, err)
		}
		byID := map[string]MachineReport{}
		for _, m := range ms {
			byID[m.MachineID] = m
		}
		if m := byID["m1"]; m.Hostname != "alice-laptop" || m.TokenName != "alice" || m.InstalledRevision != 4 || m.LastSyncMs != 2000 {
			t.Errorf("the owner's machine after another token's report: %+v", m)
		}
		if m := byID["m2"]; m.Hostname != "mallory-laptop" || m.TokenName != "mallory" {
			t.Errorf("the second token's own machine: %+v", m)
		}
		// The binding is the audit's too: the fleet bound m2 to mallory.
		if _, err := s.SetTeamAudit(ctx, team.ID, true, 0); err != nil {
			t.Fatal(err)
		}
		d := Decision{TokenID: alice, MachineID: "m2", RecordID: "r1", AtMs: time.Now().UnixMilli(), Step: "stop", Outcome: "deny", Decision: "deny"}
		if _, err := s.AddDecisions(ctx, team.ID, []Decision{d}); !errors.Is(err, ErrMachineTaken) {
			t.Errorf("alice's decisions under the machine the fleet bound to mallory: %v", err)
		}
		// The store's own callers (no token) are not checked.
		untokened := spoof
		untokened.TokenID, untokened.LastSyncMs = 0, 6000
		if refused, err := s.RecordMachines(ctx, []MachineReport{untokened}); err != nil || len(refused) != 0 {
			t.Fatalf("a report without a token: refused %+v, %v", refused, err)
		}
		if ms, _ := s.Machines(ctx, team.ID); len(ms) != 2 || ms[0].Hostname != "spoofed" {
			t.Errorf("a report without a token was not written: %+v", ms)
		}
	})
}

// TestDecisionsUntil: until (the member's time) keeps the decisions
// dated before it, in the order of receipt, across the days it spans,
// late uploads (received after newer ones, dated before them) included:
// each answer is the unfiltered list with the dates checked, alone and
// with since, a machine, an agent or a limit.
func TestDecisionsUntil(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team := mustAuditTeam(t, s, "platform", 30)
		now := time.Now()
		day := 24 * time.Hour
		// Uploads in this order: three days ago, then ten days ago (a
		// machine back from a trip), then today, then twelve and two days
		// ago; each spread over hours, two machines and two agents.
		for u, ago := range []time.Duration{3 * day, 10 * day, 0, 12 * day, 2 * day} {
			var ds []Decision
			for i := range 40 {
				ds = append(ds, Decision{MachineID: fmt.Sprint("m", i%2), Hostname: "h", RecordID: fmt.Sprintf("u%d-%d", u, i),
					AtMs: now.Add(-ago - time.Duration(i)*37*time.Minute).UnixMilli(), Step: "stop", Outcome: "deny", Decision: "deny",
					ScriptName: "guard.sh", Agent: []string{"claude", "codex"}[i%3%2], What: "x"})
			}
			if _, err := s.AddDecisions(ctx, team.ID, ds); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Millisecond) // each upload its own time of receipt
		}
		all, err := s.Decisions(ctx, DecisionFilter{TeamID: team.ID, Limit: MaxHistoryLimit})
		if err != nil || len(all) != 200 {
			t.Fatalf("%d decisions, %v", len(all), err)
		}
		for _, f := range []DecisionFilter{
			{UntilMs: now.Add(-2*day - time.Hour).UnixMilli(), Limit: 1000},
			{UntilMs: now.Add(-2*day - time.Hour).UnixMilli()},
			{UntilMs: now.Add(-9 * day).UnixMilli(), Limit: 30},
			{UntilMs: now.Add(-5 * day).UnixMilli(), SinceMs: now.Add(-11 * day).UnixMilli(), Limit: 1000},
			{UntilMs: now.Add(-day).UnixMilli(), MachineID: "m1", Limit: 1000},
			{UntilMs: now.Add(-day).UnixMilli(), Agent: "codex", Limit: 7},
			{UntilMs: now.Add(-40 * day).UnixMilli()},
			{UntilMs: now.Add(day).UnixMilli(), SinceMs: now.Add(-3*day - 5*time.Hour).UnixMilli(), Limit: 1000},
		} {
			var want []string
			for _, d := range all {
				if d.AtMs < f.UntilMs && d.AtMs >= f.SinceMs && (f.MachineID == "" || d.MachineID == f.MachineID) &&
					(f.Agent == "" || d.Agent == f.Agent) && len(want) < pageSize(f.Limit, DefaultHistoryLimit, MaxHistoryLimit) {
					want = append(want, d.RecordID)
				}
			}
			f.TeamID = team.ID
			got, err := s.Decisions(ctx, f)
			var ids []string
			for _, d := range got {
				ids = append(ids, d.RecordID)
			}
			if err != nil || !slices.Equal(ids, want) {
				t.Errorf("until %s, since %v, machine %q, agent %q, limit %d: %v\n got %v\nwant %v", time.UnixMilli(f.UntilMs).Sub(now), f.SinceMs, f.MachineID, f.Agent, f.Limit, err, ids, want)
			}
		}
	})
}
