package store

import (
	"context"
	"flag"
	"fmt"
	"testing"
	"time"
)

// benchFleet is the fleet size of BenchmarkRecordMachines: a flush of
// every machine of a company of 100,000 developers, as the issue of
// scale asks, with -args -bench.fleet=100000.
var benchFleet = flag.Int("bench.fleet", 10_000, "machines in one fleet flush of BenchmarkRecordMachines")

// BenchmarkRecordMachines times one fleet flush of benchFleet machines
// that are already stored (each a newer report: the steady state), on
// each backend; every report carries its member token, as the server's
// do, so the flush checks each machine id's binding.
func BenchmarkRecordMachines(b *testing.B) {
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			s := openT(b, be.url(b), Options{})
			ctx := context.Background()
			team := mustTeam(b, s, "fleet")
			ms := make([]MachineReport, *benchFleet)
			now := time.Now().UnixMilli()
			for i := range ms {
				ms[i] = MachineReport{TeamID: team.ID, MachineID: fmt.Sprintf("m%07d", i), Hostname: fmt.Sprintf("laptop-%d", i), OS: "Linux",
					Version: "v1.4.0", InstalledRevision: 3, Agents: []string{"claude", "codex"}, TokenName: "laptops", TokenID: 1, LastSyncMs: now}
			}
			if _, err := s.RecordMachines(ctx, ms); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			self0, pg0 := cpuSpent()
			for n := range b.N {
				for i := range ms {
					ms[i].LastSyncMs = now + int64(n) + 1
				}
				if _, err := s.RecordMachines(ctx, ms); err != nil {
					b.Fatal(err)
				}
			}
			self1, pg1 := cpuSpent()
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/flush")
			// CPU time says what a flush costs however busy the machine
			// is: this process's, and its PostgreSQL server's.
			b.ReportMetric(float64((self1-self0).Milliseconds())/float64(b.N), "cpu-ms/flush")
			if be.name == "postgres" {
				b.ReportMetric(float64((pg1-pg0).Milliseconds())/float64(b.N), "pg-cpu-ms/flush")
			}
		})
	}
}

// BenchmarkFleetView times what the fleet view reads for its first page
// at benchFleet machines: the team's counts and one page of 100, which
// writes the listing of the pages after it (view); and a later page of
// that listing (later-page).
func BenchmarkFleetView(b *testing.B) {
	for _, be := range backends {
		s := openT(b, be.url(b), Options{})
		ctx := context.Background()
		team := mustTeam(b, s, "fleet")
		ms := make([]MachineReport, *benchFleet)
		now := time.Now()
		for i := range ms {
			ms[i] = MachineReport{TeamID: team.ID, MachineID: fmt.Sprintf("m%07d", i), Hostname: fmt.Sprintf("laptop-%d", i), OS: "Linux",
				Version: []string{"v1.4.0", "v1.3.2", "v1.2.0"}[i%3], InstalledRevision: int64(i % 4), Agents: [][]string{{"claude"}, {"claude", "codex"}, {"cursor"}}[i%3],
				TokenName: "laptops", LastSyncMs: now.Add(-time.Duration(i) * time.Second).UnixMilli()}
		}
		if _, err := s.RecordMachines(ctx, ms); err != nil {
			b.Fatal(err)
		}
		staleBefore := now.Add(-24 * time.Hour).UnixMilli()
		q := MachineQuery{TeamID: team.ID, Revision: 3, StaleBeforeMs: staleBefore}
		b.Run(be.name+"/view", func(b *testing.B) {
			for range b.N {
				// Each view writes its listing: none is reused.
				b.StopTimer()
				if _, err := s.DropListings(ctx, time.Now().Add(time.Second)); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := s.CountMachines(ctx, team.ID, 3, staleBefore); err != nil {
					b.Fatal(err)
				}
				if page, err := s.ListMachines(ctx, q); err != nil || page.Next == 0 {
					b.Fatal(page.Next, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/view")
		})
		b.Run(be.name+"/later-page", func(b *testing.B) {
			first, err := s.ListMachines(ctx, q)
			if err != nil {
				b.Fatal(err)
			}
			later := q
			later.Listing, later.Offset = first.Listing, len(ms)/2
			b.ResetTimer()
			for range b.N {
				if page, err := s.ListMachines(ctx, later); err != nil || len(page.Machines) != DefaultMachinePage {
					b.Fatal(len(page.Machines), err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/page")
		})
	}
}

// BenchmarkAddDecisions times one upload of 500 decisions (an upload's
// most) on each backend.
func BenchmarkAddDecisions(b *testing.B) {
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			s := openT(b, be.url(b), Options{})
			ctx := context.Background()
			team := mustTeam(b, s, "audit")
			if _, err := s.SetTeamAudit(ctx, team.ID, true, 30); err != nil {
				b.Fatal(err)
			}
			now := time.Now().UnixMilli()
			b.ResetTimer()
			self0, pg0 := cpuSpent()
			for n := range b.N {
				ds := make([]Decision, 500)
				for i := range ds {
					ds[i] = Decision{MachineID: fmt.Sprint("m", i%50), Hostname: "laptop", RecordID: fmt.Sprintf("r%d-%d", n, i), AtMs: now,
						Step: "beforeShellExecution", Outcome: "deny", Decision: "deny", ScriptName: "guard.sh", Agent: "claude",
						What: "git push --force origin main", Message: "force pushes go through review"}
				}
				if got, err := s.AddDecisions(ctx, team.ID, ds); err != nil || got != len(ds) {
					b.Fatalf("added %d of %d: %v", got, len(ds), err)
				}
			}
			self1, pg1 := cpuSpent()
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*500), "µs/decision")
			b.ReportMetric(float64((self1-self0).Microseconds())/float64(b.N*500), "cpu-µs/decision")
			if be.name == "postgres" {
				b.ReportMetric(float64((pg1-pg0).Microseconds())/float64(b.N*500), "pg-cpu-µs/decision")
			}
		})
	}
}
