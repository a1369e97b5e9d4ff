package store

import (
	"cmp"
	"context"
	"errors"
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
	if _, err := s.RecordMachines(context.Background(), ms); err != nil {
		t.Fatal(err)
	}
	return ms
}

// inFleetOrder is the ids of ms in the fleet view's order: the stale
// ones (behind revision, or silent since staleBefore) first, the longest
// silent first; then the others, the latest sync first; ties by id, in
// the direction of their part.
func inFleetOrder(ms []MachineReport, revision, staleBefore int64) []string {
	ms = slices.Clone(ms)
	stale := func(m MachineReport) bool { return m.InstalledRevision < revision || m.LastSyncMs < staleBefore }
	slices.SortFunc(ms, func(a, b MachineReport) int {
		if sa, sb := stale(a), stale(b); sa != sb {
			if sa {
				return -1
			}
			return 1
		} else if sa {
			return cmp.Or(cmp.Compare(a.LastSyncMs, b.LastSyncMs), strings.Compare(a.MachineID, b.MachineID))
		}
		return cmp.Or(cmp.Compare(b.LastSyncMs, a.LastSyncMs), strings.Compare(b.MachineID, a.MachineID))
	})
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.MachineID
	}
	return ids
}

// TestMachinePagesWhileReporting pages through a fleet while its
// machines keep reporting (newer syncs, other revisions, which move them
// in the order) and new ones join, through a second store on the same
// database (another replica), the pages read from each store in turn:
// the pages come in the order of the first page's time, no machine comes
// twice, every machine there at the start comes once and shows its
// latest report, and none first seen after comes.
func TestMachinePagesWhileReporting(t *testing.T) {
	eachURL(t, func(t *testing.T, url string) {
		s, other := openT(t, url, Options{}), openT(t, url, Options{})
		ctx := context.Background()
		team := mustTeam(t, s, "platform")
		start := time.Now()
		initial := fleetOf(t, s, team.ID, 300, start)
		// Every machine its own last sync (a newer report, which the
		// store takes), so that the order is by time.
		for i := range initial {
			initial[i].LastSyncMs += int64(i)
		}
		if _, err := s.RecordMachines(ctx, initial); err != nil {
			t.Fatal(err)
		}
		staleBefore := start.Add(-24 * time.Hour).UnixMilli()
		want := inFleetOrder(initial, 2, staleBefore)

		reporter, readers := other, []Store{s, other}
		stop, began := make(chan struct{}), make(chan struct{})
		var wg sync.WaitGroup
		var reported int
		var stopOnce, beganOnce sync.Once
		halt := func() {
			beganOnce.Do(func() { close(began) })
			stopOnce.Do(func() { close(stop) })
			wg.Wait()
		}
		defer halt() // also when the paging fails
		wg.Go(func() {
			<-began
			for round := 1; ; round++ {
				select {
				case <-stop:
					return
				default:
				}
				batch := slices.Clone(initial)
				for i := range batch {
					batch[i].LastSyncMs = start.Add(time.Duration(round) * time.Second).UnixMilli()
					batch[i].InstalledRevision = int64(1 + round%2)
				}
				batch = append(batch, MachineReport{TeamID: team.ID, MachineID: fmt.Sprintf("new%03d", round), Hostname: "new",
					LastSyncMs: start.Add(-48 * time.Hour).UnixMilli()})
				if _, err := reporter.RecordMachines(ctx, batch); err != nil {
					select {
					case <-stop: // the paging failed and ended the test
					default:
						t.Error(err)
					}
					return
				}
				reported++
			}
		})
		seen := map[string]bool{}
		var order []string
		fresh := 0
		q := MachineQuery{TeamID: team.ID, Revision: 2, StaleBeforeMs: staleBefore, Limit: 17}
		for pages := 0; ; pages++ {
			if pages > 100 {
				t.Fatal("paging did not end")
			}
			page, err := readers[pages%len(readers)].ListMachines(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if pages == 0 {
				beganOnce.Do(func() { close(began) })
			}
			for _, m := range page.Machines {
				if seen[m.MachineID] {
					t.Fatalf("machine %s listed twice", m.MachineID)
				}
				seen[m.MachineID] = true
				order = append(order, m.MachineID)
				if m.LastSyncMs > start.UnixMilli() {
					fresh++
				}
			}
			if page.Next == 0 {
				break
			}
			if page.Listing == 0 || page.Next != len(order) {
				t.Fatalf("page %d: next %d of listing %d after %d machines", pages, page.Next, page.Listing, len(order))
			}
			q.Listing, q.Offset = page.Listing, page.Next
			time.Sleep(2 * time.Millisecond) // let the reports land between pages
		}
		halt()
		if reported == 0 || fresh == 0 {
			t.Fatalf("%d reports landed while paging, %d listed machines showed one: the test proves nothing", reported, fresh)
		}
		if !slices.Equal(order, want) {
			t.Errorf("the pages are not in the order of the first page's time:\n got %v\nwant %v", order, want)
		}
	})
}

// TestMachineOrder: the fleet view lists the stale machines first, the
// longest silent first, then the others, the latest sync first; the
// stale-only and behind-only filters keep their part of that order.
func TestMachineOrder(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team := mustTeam(t, s, "platform")
		now := time.Now()
		day := int64(24 * time.Hour / time.Millisecond)
		at := func(daysAgo float64) int64 { return now.UnixMilli() - int64(daysAgo*float64(day)) }
		ms := []MachineReport{
			{MachineID: "fresh-new", InstalledRevision: 5, LastSyncMs: at(0)},
			{MachineID: "fresh-old", InstalledRevision: 5, LastSyncMs: at(0.5)},
			{MachineID: "silent-3d", InstalledRevision: 5, LastSyncMs: at(3)},
			{MachineID: "silent-9d", InstalledRevision: 4, LastSyncMs: at(9)},
			{MachineID: "behind-now", InstalledRevision: 4, LastSyncMs: at(0.1)},
			{MachineID: "behind-2h", InstalledRevision: 1, LastSyncMs: at(0.2)},
			{MachineID: "fresh-tie-a", InstalledRevision: 6, LastSyncMs: at(0.3)},
			{MachineID: "fresh-tie-b", InstalledRevision: 5, LastSyncMs: at(0.3)},
		}
		for i := range ms {
			ms[i].TeamID, ms[i].Hostname = team.ID, "h"
		}
		if _, err := s.RecordMachines(ctx, ms); err != nil {
			t.Fatal(err)
		}
		list := func(q MachineQuery) []string {
			t.Helper()
			q.TeamID, q.Revision, q.StaleBeforeMs = team.ID, 5, at(1)
			page, err := s.ListMachines(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, m := range page.Machines {
				ids = append(ids, m.MachineID)
			}
			return ids
		}
		all := []string{"silent-9d", "silent-3d", "behind-2h", "behind-now", "fresh-new", "fresh-tie-b", "fresh-tie-a", "fresh-old"}
		if got := list(MachineQuery{}); !slices.Equal(got, all) {
			t.Errorf("order %v, want %v", got, all)
		}
		if got, want := inFleetOrder(ms, 5, at(1)), all; !slices.Equal(got, want) {
			t.Errorf("the tests' order %v, want %v", got, want)
		}
		if got := list(MachineQuery{StaleOnly: true}); !slices.Equal(got, all[:4]) {
			t.Errorf("stale only %v, want %v", got, all[:4])
		}
		if got, want := list(MachineQuery{BehindOnly: true}), []string{"silent-9d", "behind-2h", "behind-now"}; !slices.Equal(got, want) {
			t.Errorf("behind only %v, want %v", got, want)
		}
		// In pages of 3 (a listing), the same order.
		var paged []string
		q := MachineQuery{TeamID: team.ID, Revision: 5, StaleBeforeMs: at(1), Limit: 3}
		for {
			page, err := s.ListMachines(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range page.Machines {
				paged = append(paged, m.MachineID)
			}
			if page.Next == 0 {
				break
			}
			q.Listing, q.Offset = page.Listing, page.Next
		}
		if !slices.Equal(paged, all) {
			t.Errorf("in pages of 3: %v, want %v", paged, all)
		}
	})
}

// TestMachineListingChecks: a listing's later page is refused for
// another team or other filters, and once the listing is dropped; a
// listing longer than listingBlock reads across its blocks; a first page
// within listingReuse of one of the same filters reads that listing.
func TestMachineListingChecks(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team, other := mustTeam(t, s, "platform"), mustTeam(t, s, "other")
		now := time.Now()
		ms := make([]MachineReport, 2*listingBlock+5)
		for i := range ms {
			ms[i] = MachineReport{TeamID: team.ID, MachineID: fmt.Sprintf("m%05d", i), Hostname: "h", LastSyncMs: now.UnixMilli() - int64(i)}
		}
		if _, err := s.RecordMachines(ctx, ms); err != nil {
			t.Fatal(err)
		}
		q := MachineQuery{TeamID: team.ID, StaleBeforeMs: now.Add(-time.Hour).UnixMilli(), Limit: 400}
		first, err := s.ListMachines(ctx, q)
		if err != nil || first.Listing == 0 || first.Next != 400 || first.Machines[0].MachineID != "m00000" {
			t.Fatalf("first page: next %d of listing %d, %v", first.Next, first.Listing, err)
		}
		again, err := s.ListMachines(ctx, q)
		if err != nil || again.Listing != first.Listing {
			t.Errorf("a first page at once after: listing %d, want %d (reused), %v", again.Listing, first.Listing, err)
		}
		// Across the first block's end: positions 900 to 1299.
		q.Listing, q.Offset = first.Listing, 900
		page, err := s.ListMachines(ctx, q)
		if err != nil || len(page.Machines) != 400 || page.Machines[0].MachineID != "m00900" || page.Machines[399].MachineID != "m01299" || page.Next != 1300 {
			t.Fatalf("page at 900: %d machines, next %d, %v", len(page.Machines), page.Next, err)
		}
		q.Offset = 2000
		if page, err := s.ListMachines(ctx, q); err != nil || len(page.Machines) != 5 || page.Next != 0 || page.Machines[4].MachineID != "m02004" {
			t.Fatalf("the last page: %d machines, next %d, %v", len(page.Machines), page.Next, err)
		}
		var ve *ValidationError
		for name, bad := range map[string]MachineQuery{
			"another team":  {TeamID: other.ID, Listing: first.Listing, Offset: 400},
			"other filters": {TeamID: team.ID, Listing: first.Listing, Offset: 400, StaleOnly: true},
			"past its end":  {TeamID: team.ID, Listing: first.Listing, Offset: 5000},
		} {
			if _, err := s.ListMachines(ctx, bad); !errors.As(err, &ve) || ve.Field != "page_token" {
				t.Errorf("%s: %v, want a page_token error", name, err)
			}
		}
		if n, err := s.DropListings(ctx, now.Add(-time.Minute)); err != nil || n != 0 {
			t.Errorf("dropped %d listings begun before a minute ago, %v", n, err)
		}
		if n, err := s.DropListings(ctx, time.Now().Add(time.Second)); err != nil || n != 1 {
			t.Errorf("dropped %d listings, %v; want 1", n, err)
		}
		q.Offset = 400
		if _, err := s.ListMachines(ctx, q); !errors.Is(err, ErrListingGone) {
			t.Errorf("a page of a dropped listing: %v, want ErrListingGone", err)
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
			var kept []MachineReport
			for _, m := range ms {
				if keep(m) {
					kept = append(kept, m)
				}
			}
			if len(kept) == 0 {
				return nil
			}
			return inFleetOrder(kept, 2, staleBefore)
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
			if err != nil || !slices.Equal(got, c.want) || page.Next != 0 {
				t.Errorf("%s: %v (next %d), %v; want %v", c.name, got, page.Next, err, c.want)
			}
		}
		if page, err := s.ListMachines(ctx, MachineQuery{TeamID: team.ID}); err != nil || len(page.Machines) != DefaultMachinePage || page.Next != 0 && len(ms) == DefaultMachinePage {
			t.Errorf("the default page: %d machines, next %d, %v", len(page.Machines), page.Next, err)
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
		// One token sends every report, so the writers also bind the
		// machine ids at once, from different ends.
		const token = 7
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
							TokenID: token, LastSyncMs: int64(1000*(r+1) + w)})
					}
					batch = append(batch, MachineReport{TeamID: team.ID, MachineID: "m00000", Hostname: "older", TokenID: token, LastSyncMs: 1})
					if refused, err := stores[w%len(stores)].RecordMachines(ctx, batch); err != nil || len(refused) != 0 {
						t.Error(len(refused), err)
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
