//go:build unix

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/chromedp/chromedp"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/state"
	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/dashboard"
	"github.com/agenthooks/agenthooks/team/store"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// wire is the network between a member machine and the team server: a
// reverse proxy that records the path of every request it carries.
type wire struct {
	URL   string
	mu    sync.Mutex
	paths []string
}

func newWire(t *testing.T, target string) *wire {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	w := &wire{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	hs := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.mu.Lock()
		w.paths = append(w.paths, r.URL.Path)
		w.mu.Unlock()
		proxy.ServeHTTP(rw, r)
	}))
	t.Cleanup(hs.Close)
	w.URL = hs.URL
	return w
}

// count is how many requests went to a path ending in method.
func (w *wire) count(method string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, p := range w.paths {
		if strings.HasSuffix(p, "/"+method) {
			n++
		}
	}
	return n
}

// githubToken is a secret the log's rules redact.
const githubToken = "ghp_0123456789abcdefghijABCDEFGHIJ012345"

// TestFleetAndAuditInChromium: a member machine syncs through a recorded
// network and appears in the dashboard's fleet view with its host name,
// revision and agents; with the team's audit off, a command its team hook
// denies sends nothing (no upload crosses the network); an administrator
// turns the audit on in the page, the next denied command is uploaded at
// the next sync and shows in the audit view, its secret redacted, and the
// view's filters select it; a machine behind the team's revision stands
// out as stale.
func TestFleetAndAuditInChromium(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, "sqlite:"+filepath.Join(t.TempDir(), "team.db"), dashboard.Handler())
	created, err := srv.store.CreateTeam(ctx, "platform")
	if err != nil {
		t.Fatal(err)
	}
	_, memberToken, err := srv.store.CreateToken(ctx, "laptops", store.RoleMember, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := srv.store.CreateHook(ctx, adminName, created.ID, store.Hook{Step: "beforeShellExecution", ScriptName: "deny-push.sh",
		Active: true, Matcher: "^git push", ScriptContent: denyScript("pushes go through review")}); err != nil {
		t.Fatal(err)
	}

	// The member machine: its home, its local log, its id.
	net := newWire(t, srv.url)
	home := filepath.Join(t.TempDir(), "home")
	stateDir := filepath.Join(t.TempDir(), "state")
	log, err := state.Open(ctx, state.Options{Dir: stateDir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { log.Close() })
	id, err := teamsync.LoadMachineID(stateDir)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := teamsync.LoadMachineID(stateDir); err != nil || again != id {
		t.Fatalf("the machine id changed: %q, then %q (%v)", id, again, err)
	}
	client, err := teamsync.New(teamsync.Options{Server: net.URL, Token: memberToken, Home: home, OS: team.Linux, Timeout: 10 * time.Second,
		Machine: teamsync.Machine{ID: id, Hostname: "laptop-7", Version: "v1.2.3-test", Agents: []string{"claude", "codex"}}, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	sync := func() *teamsync.Result {
		t.Helper()
		res, err := client.Sync(ctx, teamsync.AcceptAll)
		if err != nil {
			t.Fatalf("sync: %v", err)
		}
		return res
	}
	push := func(agent string) {
		t.Helper()
		eng, err := engine.Load(engine.Options{Locations: config.Locations{EnterpriseFile: filepath.Join(home, "none.json"), Home: home},
			DefaultTimeout: 30 * time.Second, Sink: log})
		if err != nil {
			t.Fatal(err)
		}
		d, err := eng.Run(ctx, event.BeforeShellExecution,
			&event.BeforeShellExecutionInput{Command: "git push https://bot:" + githubToken + "@example.com/app.git main", Cwd: home}, engine.CallerAgent(agent))
		if err != nil || d.Permission != event.Deny {
			t.Fatalf("the team hook did not deny the push: %v, %v", d.Permission, err)
		}
	}

	if res := sync(); !res.Changed || res.Revision != 1 {
		t.Fatalf("first sync: %+v", res)
	}
	// Audit off: the denial stays on the machine.
	push("claude")
	if res := sync(); res.Uploaded != 0 {
		t.Fatalf("with the audit off, %d decisions were sent", res.Uploaded)
	}
	if n := net.count("UploadDecisions"); n != 0 {
		t.Fatalf("with the audit off, %d uploads crossed the network", n)
	}
	if n := net.count("GetTeamHooks"); n < 3 {
		t.Fatalf("the wire saw %d fetches, want the syncs' (and the report after the change)", n)
	}

	b := startBrowser(t)
	b.do(t, "open and sign in",
		chromedp.Navigate(srv.url+"/"),
		chromedp.WaitVisible(chromedp.ID("token")),
		chromedp.SendKeys(chromedp.ID("token"), srv.admin),
		chromedp.Click(chromedp.CSS(`#sign-in-form button[type=submit]`)),
	)
	row := fmt.Sprintf(`#machines tbody tr[data-machine=%q]`, id)
	b.waitFor(t, "the machine in the fleet view", fmt.Sprintf(`document.querySelector(%q) !== null`, row))
	cells := rowCells(t, b, row)
	if want := []string{"laptop-7", id, "Linux", "v1.2.3-test", "1", "0"}; len(cells) != 1 || !slices.Equal(cells[0][:6], want) || cells[0][7] != "claude, codex" {
		t.Fatalf("fleet row %q, want %q … claude, codex", cells, want)
	}
	if eval[bool](t, b, fmt.Sprintf(`document.querySelector(%q).classList.contains("stale")`, row)) {
		t.Error("an up-to-date machine is marked stale")
	}

	// The administrator turns the audit on, keeping decisions 30 days.
	b.do(t, "turn the audit on",
		chromedp.Click(chromedp.ID("audit-on")),
		chromedp.SendKeys(chromedp.ID("audit-days"), "30"),
		chromedp.Click(chromedp.ID("save-audit")),
	)
	b.waitFor(t, "the audit saved", `document.getElementById("status").textContent.startsWith("Audit on")`)
	if tm, err := srv.store.Team(ctx, created.ID); err != nil || !tm.Audit || tm.AuditRetentionDays != 30 {
		t.Fatalf("the team after turning the audit on: %+v, %v", tm, err)
	}
	// The machine learns of it; the earlier denial is not sent.
	if res := sync(); res.Uploaded != 0 {
		t.Fatalf("decisions made before the audit was on were sent: %d", res.Uploaded)
	}
	push("claude")
	if res := sync(); res.Uploaded != 1 {
		t.Fatalf("the sync after a denial sent %d decisions, want 1 (warnings %v)", res.Uploaded, res.Warnings)
	}
	// Uploading leaves the machine at the revision it holds.
	ms, err := srv.adminClient().ListMachines(ctx, connect.NewRequest(&teamv1.ListMachinesRequest{TeamId: created.ID}))
	if err != nil || len(ms.Msg.Machines) != 1 || ms.Msg.Machines[0].Machine.InstalledRevision != 1 || ms.Msg.Machines[0].Stale {
		t.Fatalf("the fleet after an upload: %v, %v", ms, err)
	}
	if res := sync(); res.Uploaded != 0 {
		t.Fatalf("a decision was sent twice")
	}
	if n := net.count("UploadDecisions"); n != 1 {
		t.Fatalf("%d uploads crossed the network, want 1", n)
	}

	b.do(t, "refresh the audit view", chromedp.Click(chromedp.ID("apply-filter")))
	b.waitFor(t, "the denial in the audit view", `document.querySelectorAll("#decisions tbody tr").length === 1`)
	d := rowCells(t, b, "#decisions tbody tr")[0]
	if d[1] != "laptop-7" || d[2] != "claude" || d[3] != "beforeShellExecution" || d[4] != "deny" || d[5] != "deny-push.sh" ||
		!strings.HasPrefix(d[6], "git push https://bot:") || !strings.HasPrefix(d[7], "pushes go through review") {
		t.Errorf("audit row %q", d)
	}
	if page := eval[string](t, b, `document.body.innerText`); strings.Contains(page, githubToken) || !strings.Contains(d[6], "[REDACTED:") {
		t.Errorf("the secret was not redacted before it left the machine: %q", d[6])
	}
	stored, err := srv.store.Decisions(ctx, store.DecisionFilter{TeamID: created.ID})
	if err != nil || len(stored) != 1 || strings.Contains(stored[0].What, githubToken) {
		t.Fatalf("stored decisions %+v, %v", stored, err)
	}

	// Filters: by machine and agent it is there; by another agent not.
	filter := func(field, value string, want int) {
		t.Helper()
		b.do(t, "filter by "+field,
			clearField("filter-machine"), clearField("filter-agent"),
			chromedp.SendKeys(chromedp.ID(field), value),
			chromedp.Click(chromedp.ID("apply-filter")))
		b.waitFor(t, fmt.Sprintf("%d row(s) for %s=%s", want, field, value),
			fmt.Sprintf(`document.querySelectorAll("#decisions tbody tr").length === %d && document.getElementById("no-decisions").hidden === %v`, want, want > 0))
	}
	filter("filter-agent", "codex", 0)
	filter("filter-machine", id, 1)
	filter("filter-agent", "claude", 1)

	// A change the machine has not synced makes it stale.
	adm := srv.adminClient()
	if _, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: created.ID, Hook: &teamv1.TeamHook{
		HookStep: "stop", ScriptName: "audit.sh", IsActive: true, ScriptContent: "#!/bin/sh\ncat >/dev/null\necho '{}'\n"}})); err != nil {
		t.Fatal(err)
	}
	b.do(t, "pick the team again", chromedp.SetValue(chromedp.ID("team"), fmt.Sprint(created.ID)))
	eval[chromedp.Void](t, b, `document.getElementById("team").dispatchEvent(new Event("change"))`)
	b.waitFor(t, "the machine stale", fmt.Sprintf(`document.querySelector(%q)?.classList.contains("stale") && document.querySelector(%q).cells[5].textContent === "1"`, row, row))
	sync()
	b.do(t, "pick the team again", chromedp.SetValue(chromedp.ID("team"), fmt.Sprint(created.ID)))
	eval[chromedp.Void](t, b, `document.getElementById("team").dispatchEvent(new Event("change"))`)
	b.waitFor(t, "the machine current", fmt.Sprintf(`!document.querySelector(%q)?.classList.contains("stale") && document.querySelector(%q).cells[4].textContent === "2"`, row, row))
	// Every refresh the team's change started has rendered (one of them
	// fills the sandbox field, which would wipe what is typed into it).
	b.waitFor(t, "the page idle", `document.body.getAttribute("aria-busy") === "false"`)

	// The team's sandbox, set in the page: a bad one is refused with the
	// field; a good one reaches the machine at its next sync.
	b.do(t, "type a bad sandbox", chromedp.SendKeys(chromedp.ID("sandbox-json"), `{"type":"open"}`), chromedp.Click(chromedp.ID("save-sandbox")))
	b.waitFor(t, "the refusal", `document.getElementById("error-text").textContent.startsWith("invalid_argument: sandbox_json/type")`)
	b.do(t, "type a sandbox", chromedp.Click(chromedp.ID("error-close")), clearField("sandbox-json"),
		chromedp.SendKeys(chromedp.ID("sandbox-json"), `{"networkPolicy":{"default":"deny"}}`), chromedp.Click(chromedp.ID("save-sandbox")))
	b.waitFor(t, "the sandbox saved", `document.getElementById("status").textContent.startsWith("Saved the sandbox of platform (revision 3)")`)
	if res := sync(); !res.Changed || res.Revision != 3 {
		t.Fatalf("sync after the sandbox: %+v", res)
	}
	if data, err := os.ReadFile(filepath.Join(config.TeamHooksDir(home, fmt.Sprint(created.ID)), "sandbox.json")); err != nil || string(data) != `{"networkPolicy":{"default":"deny"}}` {
		t.Fatalf("the machine's team sandbox.json: %q, %v", data, err)
	}

	shot, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	checkPNG(t, shot)
	if err := os.WriteFile(fleetScreenshotCopy, shot, 0o644); err != nil {
		t.Logf("a copy of the screenshot could not be left at %s: %v", fleetScreenshotCopy, err)
	}
	if p := b.problems(); len(p) > 0 {
		t.Errorf("the page's console shows problems:\n%s", strings.Join(p, "\n"))
	}
}

// fleetScreenshotCopy is where the test leaves its last screenshot for
// people to look at.
const fleetScreenshotCopy = "/tmp/dashboard-fleet.png"
