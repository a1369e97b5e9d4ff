package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fleetOf records n machines of a team: m000…, host-N (upper case for
// every tenth), version v1 for two thirds and v2 for the rest, agents
// claude (all) and codex (every other), installed revision 2 but 1 for
// every fifth, and a last sync two days ago for every seventh.
func fleetOf(t *testing.T, s Store, teamID int64, n int, now time.Time) []MachineReport {
	t.Helper()
	var ms []MachineReport
	for i := range n {
		m := MachineReport{TeamID: teamID, MachineID: fmt.Sprintf("m%03d", i), Hostname: fmt.Sprintf("host-%d", i), OS: "Linux",
			Version: "v1", InstalledRevision: 2, Agents: []string{"claude"}, TokenName: "laptops", LastSyncMs: now.UnixMilli()}
		if i%10 == 0 {
			m.Hostname = fmt.Sprintf("HOST-%d", i)
		}
		if i%3 == 2 {
			m.Version = "v2"
		}
		if i%2 == 1 {
			m.Agents = append(m.Agents, "codex")
		}
		if i%5 == 0 {
			m.InstalledRevision = 1
		}
		if i%7 == 0 {
			m.LastSyncMs = now.Add(-48 * time.Hour).UnixMilli()
		}
		ms = append(ms, m)
	}
	if err := s.RecordMachines(context.Background(), ms); err != nil {
		t.Fatal(err)
	}
	return ms
}

// TestMachinePagesWhileReporting pages through a fleet while its
// machines keep reporting (newer syncs, new revisions) and new ones
// join, through a second store on the same database (another replica):
// the pages come in one order, no machine comes twice, and every machine
// there at the start comes once.
func TestMachinePagesWhileReporting(t *testing.T) {
	eachURL(t, func(t *testing.T, url string) {
		s, other := openT(t, url, Options{}), openT(t, url, Options{})
		ctx := context.Background()
		team := mustTeam(t, s, "platform")
		start := time.Now()
		initial := fleetOf(t, s, team.ID, 300, start)

		stop := make(chan struct{})
		var wg sync.WaitGroup
		var reported int
		wg.Go(func() {
			for round := 1; ; round++ {
				select {
				case <-stop:
					return
				default:
				}
				batch := slices.Clone(initial)
				for i := range batch {
					batch[i].LastSyncMs = start.Add(time.Duration(round) * time.Second).UnixMilli()
					batch[i].InstalledRevision = int64(2 + round%2)
				}
				batch = append(batch, MachineReport{TeamID: team.ID, MachineID: fmt.Sprintf("new%03d", round), Hostname: "new",
					LastSyncMs: start.UnixMilli()})
				if err := other.RecordMachines(ctx, batch); err != nil {
					t.Error(err)
					return
				}
				reported++
			}
		})
		seen := map[string]bool{}
		var order []string
		after := ""
		for pages := 0; ; pages++ {
			if pages > 100 {
				t.Fatal("paging did not end")
			}
			page, err := s.ListMachines(ctx, MachineQuery{TeamID: team.ID, Revision: 3, StaleBeforeMs: start.Add(-24 * time.Hour).UnixMilli(),
				After: after, Limit: 17})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range page.Machines {
				if seen[m.MachineID] {
					t.Fatalf("machine %s listed twice", m.MachineID)
				}
				seen[m.MachineID] = true
				order = append(order, m.MachineID)
			}
			if page.Next == "" {
				break
			}
			if page.Next != page.Machines[len(page.Machines)-1].MachineID {
				t.Fatalf("next %q is not the page's last machine", page.Next)
			}
			after = page.Next
			time.Sleep(2 * time.Millisecond) // let the reports land between pages
		}
		close(stop)
		wg.Wait()
		if reported == 0 {
			t.Fatal("no report landed while paging: the test proves nothing")
		}
		if !slices.IsSorted(order) {
			t.Errorf("the pages are not in machine id order: %v", order)
		}
		for _, m := range initial {
			if !seen[m.MachineID] {
				t.Errorf("machine %s was missed", m.MachineID)
			}
		}
	})
}

// TestMachineFiltersAndCounts: each filter keeps what it names, alone
// and together; the counts sum up the whole team, computed by the
// database.
func TestMachineFiltersAndCounts(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team := mustTeam(t, s, "platform")
		other := mustTeam(t, s, "other")
		now := time.Now()
		ms := fleetOf(t, s, team.ID, 100, now)
		fleetOf(t, s, other.ID, 10, now)
		staleBefore := now.Add(-24 * time.Hour).UnixMilli()

		want := func(keep func(MachineReport) bool) []string {
			var ids []string
			for _, m := range ms {
				if keep(m) {
					ids = append(ids, m.MachineID)
				}
			}
			return ids
		}
		stale := func(m MachineReport) bool { return m.InstalledRevision < 2 || m.LastSyncMs < staleBefore }
		for _, c := range []struct {
			name string
			q    MachineQuery
			want []string
		}{
			{"all", MachineQuery{}, want(func(MachineReport) bool { return true })},
			{"stale", MachineQuery{StaleOnly: true}, want(stale)},
			{"behind", MachineQuery{BehindOnly: true}, want(func(m MachineReport) bool { return m.InstalledRevision < 2 })},
			{"host prefix in any case", MachineQuery{Prefix: "host-1"}, want(func(m MachineReport) bool {
				return m.Hostname == "host-1" || m.Hostname == "HOST-10" || len(m.Hostname) == 7 && m.Hostname[:6] == "host-1"
			})},
			{"id prefix", MachineQuery{Prefix: "m09"}, want(func(m MachineReport) bool { return m.MachineID[:3] == "m09" })},
			{"version", MachineQuery{Version: "v2"}, want(func(m MachineReport) bool { return m.Version == "v2" })},
			{"stale v2", MachineQuery{StaleOnly: true, Version: "v2"}, want(func(m MachineReport) bool { return stale(m) && m.Version == "v2" })},
			{"unknown version", MachineQuery{Version: "v9"}, nil},
		} {
			q := c.q
			q.TeamID, q.Revision, q.StaleBeforeMs, q.Limit = team.ID, 2, staleBefore, 1000
			page, err := s.ListMachines(ctx, q)
			var got []string
			for _, m := range page.Machines {
				got = append(got, m.MachineID)
			}
			if err != nil || !slices.Equal(got, c.want) || page.Next != "" {
				t.Errorf("%s: %v (next %q), %v; want %v", c.name, got, page.Next, err, c.want)
			}
		}
		if page, err := s.ListMachines(ctx, MachineQuery{TeamID: team.ID}); err != nil || len(page.Machines) != DefaultMachinePage || page.Next != "" && len(ms) == DefaultMachinePage {
			t.Errorf("the default page: %d machines, next %q, %v", len(page.Machines), page.Next, err)
		}

		c, err := s.CountMachines(ctx, team.ID, 2, staleBefore)
		if err != nil {
			t.Fatal(err)
		}
		wantStale, wantBehind := len(want(stale)), len(want(func(m MachineReport) bool { return m.InstalledRevision < 2 }))
		if c.Total != 100 || c.Stale != int64(wantStale) || c.Behind != int64(wantBehind) {
			t.Errorf("counts %d total, %d stale, %d behind; want 100, %d, %d", c.Total, c.Stale, c.Behind, wantStale, wantBehind)
		}
		if want := []NameCount{{"v1", 67}, {"v2", 33}}; !slices.Equal(c.Versions, want) {
			t.Errorf("by version %v, want %v", c.Versions, want)
		}
		if want := []NameCount{{"claude", 100}, {"codex", 50}}; !slices.Equal(c.Agents, want) {
			t.Errorf("by agent %v, want %v", c.Agents, want)
		}
		if c, err := s.CountMachines(ctx, team.ID+100, 0, 0); err != nil || c.Total != 0 || len(c.Versions) != 0 || len(c.Agents) != 0 {
			t.Errorf("counts of a team with no machine: %+v, %v", c, err)
		}
	})
}

// TestRecordMachinesConcurrently has writers write the same machines at
// once, from two ends and with a machine twice in each batch, through two
// stores on PostgreSQL (two replicas) and one on SQLite (one server's
// database): no write fails (row by row in map order, PostgreSQL found
// deadlocks here), and every machine keeps its newest report.
func TestRecordMachinesConcurrently(t *testing.T) {
	eachURL(t, func(t *testing.T, url string) {
		stores := []Store{openT(t, url, Options{})}
		if !strings.HasPrefix(url, "sqlite:") {
			stores = append(stores, openT(t, url, Options{}))
		}
		ctx := context.Background()
		team := mustTeam(t, stores[0], "platform")
		const machines, writers, rounds = 2000, 4, 5
		var wg sync.WaitGroup
		for w := range writers {
			wg.Go(func() {
				for r := range rounds {
					batch := make([]MachineReport, 0, machines+1)
					for i := range machines {
						// Writers walk the machines from different ends.
						j := i
						if w%2 == 1 {
							j = machines - 1 - i
						}
						batch = append(batch, MachineReport{TeamID: team.ID, MachineID: fmt.Sprintf("m%05d", j), Hostname: "h",
							LastSyncMs: int64(1000*(r+1) + w)})
					}
					batch = append(batch, MachineReport{TeamID: team.ID, MachineID: "m00000", Hostname: "older", LastSyncMs: 1})
					if err := stores[w%len(stores)].RecordMachines(ctx, batch); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		ms, err := stores[0].Machines(ctx, team.ID)
		if err != nil || len(ms) != machines {
			t.Fatalf("%d machines, %v", len(ms), err)
		}
		for _, m := range ms {
			if m.LastSyncMs != 1000*rounds+writers-1 || m.Hostname != "h" {
				t.Fatalf("machine %s kept %d (%q), not the newest report", m.MachineID, m.LastSyncMs, m.Hostname)
			}
		}
	})
}
