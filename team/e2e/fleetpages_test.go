//go:build unix

package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agenthooks/agenthooks/team/dashboard"
	"github.com/agenthooks/agenthooks/team/store"
)

// TestDashboardFleetPages: the dashboard shows a fleet's counts and
// one page of 100 machines at a time, the stale ones first (the longest
// silent first, marked), then the others (the latest sync first); Next
// and Previous walk the pages of that order, machines reporting
// meanwhile keeping their place; the stale, prefix and version filters
// narrow them, the counts staying those of the whole team.
func TestDashboardFleetPages(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, "sqlite:"+filepath.Join(t.TempDir(), "team.db"), dashboard.Handler())
	team, err := srv.store.CreateTeam(ctx, "fleet")
	if err != nil {
		t.Fatal(err)
	}
	// 250 machines at revision 0 (the team's): every fifth silent for
	// two days (stale), every other on v2; machine i synced i seconds
	// before the others.
	now := time.Now()
	var ms []store.MachineReport
	for i := range 250 {
		m := store.MachineReport{TeamID: team.ID, MachineID: fmt.Sprintf("m%04d", i), Hostname: fmt.Sprintf("host-%d", i), OS: "Linux",
			Version: []string{"v1", "v2"}[i%2], Agents: []string{"claude"}, TokenName: "laptops", LastSyncMs: now.Add(-time.Duration(i) * time.Second).UnixMilli()}
		if i%5 == 0 {
			m.LastSyncMs = now.Add(-48*time.Hour - time.Duration(i)*time.Second).UnixMilli()
		}
		ms = append(ms, m)
	}
	if _, err := srv.store.RecordMachines(ctx, ms); err != nil {
		t.Fatal(err)
	}
	b := startBrowser(t)
	b.do(t, "sign in", chromedp.Navigate(srv.url+"/"), chromedp.WaitVisible(chromedp.ID("token")),
		chromedp.SendKeys(chromedp.ID("token"), srv.admin), chromedp.Click(chromedp.CSS(`#sign-in-form button[type=submit]`)))
	page := func(what string, rows int, first, label string, prev, next bool) {
		t.Helper()
		b.waitFor(t, what, fmt.Sprintf(`document.querySelectorAll("#machines tbody tr").length === %d && `+
			`document.querySelector("#machines tbody tr").dataset.machine === %q && document.getElementById("fleet-page").textContent === %q && `+
			`document.getElementById("fleet-prev").disabled === %v && document.getElementById("fleet-next").disabled === %v`,
			rows, first, label, !prev, !next))
	}
	// The stale first, the longest silent first (m0245, …, m0000); then
	// the others, the latest first (m0001, m0002, m0003, m0004, m0006, …).
	page("the first page", 100, "m0245", "page 1", false, true)
	order := eval[string](t, b, `[...document.querySelectorAll("#machines tbody tr")].map((r) => r.dataset.machine + (r.classList.contains("stale") ? "*" : "")).join(" ")`)
	if want := "m0245* m0240* m0235*"; !strings.HasPrefix(order, want) || !strings.Contains(order, "m0005* m0000* m0001 m0002 m0003 m0004 m0006 ") || strings.Count(order, "*") != 50 {
		t.Errorf("the first page's order: %s", order)
	}
	// The up-to-date machines report again, m0249 the latest: a new
	// listing would put it first of them; this one keeps its order.
	reported := slices.DeleteFunc(slices.Clone(ms), func(m store.MachineReport) bool { return m.LastSyncMs < now.Add(-24*time.Hour).UnixMilli() })
	for i := range reported {
		reported[i].LastSyncMs = time.Now().UnixMilli() + int64(i)
	}
	if _, err := srv.store.RecordMachines(ctx, reported); err != nil {
		t.Fatal(err)
	}
	summary := eval[string](t, b, `document.getElementById("fleet-summary").textContent + " | " + document.getElementById("fleet-counts").innerText`)
	if want := "250 machine(s), 50 stale, 0 behind | versions: v1 125, v2 125\nagents: claude 250"; summary != want {
		t.Errorf("counts %q, want %q", summary, want)
	}
	b.do(t, "next", chromedp.Click(chromedp.ID("fleet-next")))
	page("the second page", 100, "m0063", "page 2", true, true)
	b.do(t, "next", chromedp.Click(chromedp.ID("fleet-next")))
	page("the last page", 50, "m0188", "page 3", true, false)
	b.do(t, "previous", chromedp.Click(chromedp.ID("fleet-prev")))
	page("the second page again", 100, "m0063", "page 2", true, true)

	b.do(t, "stale only", chromedp.Click(chromedp.ID("fleet-stale")), chromedp.Click(chromedp.ID("fleet-apply")))
	page("the stale machines", 50, "m0245", "page 1", false, false)
	if n := eval[int](t, b, `document.querySelectorAll("#machines tbody tr.stale").length`); n != 50 {
		t.Errorf("%d of the stale machines' rows are marked stale", n)
	}
	b.do(t, "stale on v2 with a prefix", chromedp.SendKeys(chromedp.ID("fleet-version"), "v2"),
		chromedp.SendKeys(chromedp.ID("fleet-prefix"), "HOST-1"), chromedp.Click(chromedp.ID("fleet-apply")))
	// Stale (every fifth) on v2 (the odd ones): 5, 15, 25, …; of those,
	// the hosts that start with host-1 are host-15 and host-105 to 195,
	// the longest silent (195) first.
	page("the filtered machines", 11, "m0195", "page 1", false, false)
	if got := eval[string](t, b, `document.getElementById("fleet-summary").textContent`); got != "250 machine(s), 50 stale, 0 behind" {
		t.Errorf("the counts follow the filters: %q", got)
	}
	if p := b.problems(); len(p) > 0 {
		t.Errorf("the page's console shows problems: %v", p)
	}
}
