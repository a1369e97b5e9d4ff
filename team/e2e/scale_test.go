//go:build unix

package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agenthooks/agenthooks/team/dashboard"
	"github.com/agenthooks/agenthooks/team/internal/pgtest"
	"github.com/agenthooks/agenthooks/team/load"
	"github.com/agenthooks/agenthooks/team/store"
)

// fullScale runs the capacity benchmarks at the sizes docs/team.md
// quotes (minutes each); without it they run a short pass, which is what
// CI runs to keep them working:
//
//	go test -run '^$' -bench 'TeamLoad|DashboardFleet' -benchtime 1x ./team/e2e -args -teamload.full
var fullScale = flag.Bool("teamload.full", false, "run the team server's capacity benchmarks at full size")

// size is n at full scale, short otherwise.
func size[T any](full, short T) T {
	if *fullScale {
		return full
	}
	return short
}

// BenchmarkTeamLoad plays the load generator's scenarios (team/load) on
// SQLite and on two PostgreSQL replicas, printing each report: a fleet of
// distinct machines in bursts while an administrator lists it, with a
// fleet flush timed after; the audit's filters over seeded decisions;
// and a pruning of seeded decisions while fetches run at a fixed rate
// and uploads land. Any failed call, failed background write or
// PostgreSQL deadlock fails it.
func BenchmarkTeamLoad(b *testing.B) {
	scenarios := []struct {
		name string
		cfg  load.Config
	}{
		{"fleet", load.Config{Machines: size(50_000, 3000), Burst: true, BurstWindow: size(2000, 500), ListEvery: 500 * time.Millisecond,
			UploadRate: 20, Duration: size(60*time.Second, 3*time.Second), FlushRows: size(100_000, 5000)}},
		{"audit", load.Config{Machines: size(10_000, 100), SeedDecisions: size(1_000_000, 5000), TimeFilters: true, Duration: time.Second}},
		{"prune", load.Config{Machines: size(10_000, 100), SeedDecisions: size(1_500_000, 5000), FetchRate: size(2000.0, 300.0),
			UploadRate: size(20.0, 5.0), PruneAfter: size(15*time.Second, time.Second), Duration: size(30*time.Second, 3*time.Second)}},
	}
	for _, sc := range scenarios {
		for _, be := range []struct {
			name     string
			replicas int
			url      func(testing.TB) string
		}{
			{"sqlite", 1, func(tb testing.TB) string { return "sqlite:" + filepath.Join(tb.TempDir(), "team.db") }},
			{"postgres-2-replicas", 2, pgtest.URL},
		} {
			b.Run(sc.name+"/"+be.name, func(b *testing.B) {
				cfg := sc.cfg
				cfg.DB, cfg.Replicas = be.url(b), be.replicas
				for range b.N {
					rep, err := load.Run(context.Background(), cfg)
					if err != nil {
						b.Fatal(err)
					}
					var out strings.Builder
					rep.Print(&out)
					fmt.Fprintf(os.Stdout, "--- %s/%s\n%s", sc.name, be.name, out.String())
					if rep.Failed() {
						b.Fatalf("calls or background writes failed, or PostgreSQL saw deadlocks:\n%s", out.String())
					}
					if cfg.PruneAfter > 0 && rep.Pruned != int64(cfg.SeedDecisions) {
						b.Fatalf("pruned %d of %d seeded decisions", rep.Pruned, cfg.SeedDecisions)
					}
					b.ReportMetric(float64(rep.Fetches)/rep.Elapsed.Seconds(), "fetches/s")
					b.ReportMetric(float64(rep.Latency[0].P99.Microseconds())/1000, "p99-ms")
				}
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// BenchmarkDashboardFleet loads the dashboard in headless Chromium on a
// team of 100,000 machines (2,000 in the short pass): the time from
// opening the page, signed in, to the fleet's counts and first page
// shown (which writes the listing of the pages after it), the median of
// 3 loads.
func BenchmarkDashboardFleet(b *testing.B) {
	machines := size(100_000, 2000)
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			ctx := context.Background()
			srv := startServer(b, be.url(b), dashboard.Handler())
			team, err := srv.store.CreateTeam(ctx, "fleet")
			if err != nil {
				b.Fatal(err)
			}
			ms := make([]store.MachineReport, machines)
			now := time.Now()
			for i := range ms {
				ms[i] = store.MachineReport{TeamID: team.ID, MachineID: fmt.Sprintf("m%07d", i), Hostname: fmt.Sprintf("laptop-%d", i), OS: "Linux",
					Version: []string{"v1.4.0", "v1.3.2"}[i%2], InstalledRevision: int64(i % 3), Agents: []string{"claude", "codex"},
					TokenName: "laptops", LastSyncMs: now.Add(-time.Duration(i) * time.Second).UnixMilli()}
			}
			if _, err := srv.store.RecordMachines(ctx, ms); err != nil {
				b.Fatal(err)
			}
			br := startBrowser(b)
			br.do(b, "sign in", chromedp.Navigate(srv.url+"/"), chromedp.WaitVisible(chromedp.ID("token")),
				chromedp.SendKeys(chromedp.ID("token"), srv.admin), chromedp.Click(chromedp.CSS(`#sign-in-form button[type=submit]`)))
			shown := fmt.Sprintf(`document.getElementById("fleet-summary").textContent.startsWith("%d machine(s)") && document.querySelectorAll("#machines tbody tr").length === 100`, machines)
			br.waitFor(b, "the fleet", shown)
			var loads []time.Duration
			b.ResetTimer()
			for range 3 {
				// Each load writes its listing, as a first load does: none
				// reads the one of the load before.
				if _, err := srv.store.DropListings(ctx, time.Now().Add(time.Second)); err != nil {
					b.Fatal(err)
				}
				began := time.Now()
				br.do(b, "reload", chromedp.Navigate(srv.url+"/"))
				br.waitFor(b, "the fleet after a reload", shown)
				loads = append(loads, time.Since(began))
			}
			b.StopTimer()
			slices.Sort(loads)
			api := eval[float64](b, br, `Math.max(...performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/ListMachines")).map((e) => e.responseEnd - e.startTime))`)
			fmt.Fprintf(os.Stdout, "--- dashboard/%s: %d machines, first load %.0f ms (median of 3, polled every 50 ms), ListMachines %.0f ms in the page\n",
				be.name, machines, float64(loads[1].Microseconds())/1000, api)
			b.ReportMetric(float64(loads[1].Microseconds())/1000, "load-ms")
			b.ReportMetric(0, "ns/op")
			if p := br.problems(); len(p) > 0 {
				b.Errorf("the page's console shows problems:\n%s", strings.Join(p, "\n"))
			}
		})
	}
}
