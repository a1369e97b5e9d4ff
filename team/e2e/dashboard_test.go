//go:build unix

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/dashboard"
	"github.com/agenthooks/agenthooks/team/store"
)

// screenshotCopy is where the dashboard test leaves a screenshot for
// people to look at.
const screenshotCopy = "/tmp/dashboard.png"

// dashboardScript is the hook the test types into the dashboard.
const dashboardScript = "#!/bin/sh\ncat >/dev/null\necho '{\"permission\":\"deny\",\"user_message\":\"pushes are off (dashboard)\"}'\n"

// TestDashboardInChromium drives the dashboard in a real headless
// Chromium, against a real server on SQLite: sign in with an admin
// token, create a team, pick one, create a hook through the form, see it
// listed and in the history; a member machine syncs it and its engine
// denies with it; the hook is edited, switched off in the page (the next
// sync removes it) and deleted.
func TestDashboardInChromium(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, "sqlite:"+filepath.Join(t.TempDir(), "team.db"), dashboard.Handler())
	platform, err := srv.store.CreateTeam(ctx, "platform")
	if err != nil {
		t.Fatal(err)
	}
	_, memberToken, err := srv.store.CreateToken(ctx, "laptops", store.RoleMember, platform.ID)
	if err != nil {
		t.Fatal(err)
	}
	b := startBrowser(t)

	// The page comes with its security headers.
	resp, err := chromedp.Run(b.ctx, chromedp.NavigateResponse(srv.url+"/"))
	if err != nil {
		t.Fatal(err)
	}
	if csp, _ := resp.Headers["Content-Security-Policy"].(string); resp.Status != 200 || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Fatalf("GET /: %d, Content-Security-Policy %q", resp.Status, csp)
	}

	// A wrong token is refused with the server's message, and not kept.
	b.do(t, "sign in with a wrong token",
		chromedp.WaitVisible(chromedp.ID("token")),
		chromedp.SendKeys(chromedp.ID("token"), "ah_not-a-token"),
		chromedp.Click(chromedp.CSS(`#sign-in-form button[type=submit]`)),
	)
	b.waitFor(t, "the error", `!document.getElementById("error").hidden`)
	if msg := eval[string](t, b, `document.getElementById("error-text").textContent`); !strings.HasPrefix(msg, "unauthenticated: ") {
		t.Errorf("error shown for a wrong token: %q", msg)
	}
	if eval[bool](t, b, `sessionStorage.getItem("agenthooks.adminToken") !== null || !document.getElementById("app").hidden`) {
		t.Error("a refused token was kept, or the page opened")
	}

	b.do(t, "sign in",
		clearField("token"),
		chromedp.SendKeys(chromedp.ID("token"), srv.admin),
		chromedp.Click(chromedp.CSS(`#sign-in-form button[type=submit]`)),
	)
	b.waitFor(t, "the team list", `document.querySelectorAll("#team option").length === 1`)
	// The token is in this tab's sessionStorage only: no cookie, not in
	// the address, not in localStorage.
	if !eval[bool](t, b, fmt.Sprintf(`sessionStorage.getItem("agenthooks.adminToken") === %q && document.cookie === "" && localStorage.length === 0 && !location.href.includes("ah_")`, srv.admin)) {
		t.Error("the admin token is not (only) in sessionStorage")
	}

	// A team made in the page; its name, markup included, is shown as text.
	const oddName = `<img src=x id=injected> & "Ops"`
	b.do(t, "create a team",
		chromedp.SendKeys(chromedp.ID("new-team-name"), oddName),
		chromedp.Click(chromedp.CSS(`#new-team-form button[type=submit]`)),
	)
	b.waitFor(t, "the new team chosen", fmt.Sprintf(`document.getElementById("team").selectedOptions[0]?.textContent === %q`, oddName+" (id 2)"))
	if eval[bool](t, b, `document.getElementById("injected") !== null`) {
		t.Error("a team name was rendered as HTML")
	}
	if _, err := srv.store.TeamByName(ctx, oddName); err != nil {
		t.Errorf("the team made in the page: %v", err)
	}

	// Pick the team.
	b.do(t, "pick the team", chromedp.SetValue(chromedp.ID("team"), fmt.Sprint(platform.ID)))
	eval[chromedp.Void](t, b, `document.getElementById("team").dispatchEvent(new Event("change"))`)
	b.waitFor(t, "the team's hooks", `document.getElementById("revision").textContent === "revision 0" && !document.getElementById("no-hooks").hidden`)

	// A hook the server refuses: its message is shown, nothing is made.
	b.do(t, "create a bad hook",
		chromedp.Click(chromedp.ID("new-hook")),
		chromedp.WaitVisible(chromedp.ID("editor")),
		chromedp.SendKeys(chromedp.ID("script-name"), "../evil.sh"),
		chromedp.Click(chromedp.ID("save-hook")),
	)
	b.waitFor(t, "the refusal", `!document.getElementById("error").hidden`)
	if msg := eval[string](t, b, `document.getElementById("error-text").textContent`); !strings.HasPrefix(msg, "invalid_argument: script_name") {
		t.Errorf("error shown for a bad script name: %q", msg)
	}

	// The hook, typed into the form as a user would.
	b.do(t, "fill in the hook",
		chromedp.Click(chromedp.ID("error-close")),
		clearField("script-name"),
		chromedp.SendKeys(chromedp.ID("script-name"), "deny-push.sh"),
		chromedp.SetValue(chromedp.ID("step"), "beforeShellExecution"),
		chromedp.Click(chromedp.ID("os-Linux")),
		chromedp.SendKeys(chromedp.ID("matcher"), "^git push"),
		chromedp.SendKeys(chromedp.ID("timeout"), "5"),
		chromedp.Click(chromedp.ID("fail-closed")),
		chromedp.SendKeys(chromedp.ID("script"), dashboardScript),
		chromedp.Click(chromedp.ID("save-hook")),
	)
	row := `#hooks tbody tr[data-script="deny-push.sh"]`
	b.waitFor(t, "the hook listed", fmt.Sprintf(`document.querySelector(%q) !== null`, row))
	cells := rowCells(t, b, row)
	if want := []string{"deny-push.sh", "beforeShellExecution", "Linux", "^git push", "5 s", "yes", "active"}; len(cells) != 1 || !slices.Equal(cells[0][:7], want) ||
		!strings.HasSuffix(cells[0][7], "by "+adminName) {
		t.Errorf("hook row %q, want %q … by %s", cells, want, adminName)
	}
	b.waitFor(t, "the creation in the history", `document.querySelector('#history tbody tr[data-action="create"][data-script="deny-push.sh"]') !== null`)
	if h := rowCells(t, b, "#history tbody tr"); len(h) != 1 || h[0][0] != "1" || h[0][2] != "create" || h[0][3] != "deny-push.sh" || h[0][5] != adminName {
		t.Errorf("history %q", h)
	}
	snap, err := srv.store.Hooks(ctx, platform.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Hooks) != 1 {
		t.Fatalf("the store has %d hooks", len(snap.Hooks))
	}
	if h := snap.Hooks[0]; h.Step != "beforeShellExecution" || !slices.Equal(h.OperatingSystems, []string{"Linux"}) || !h.Active ||
		h.ScriptContent != dashboardScript || h.Matcher != "^git push" || h.TimeoutSeconds != 5 || !h.FailClosed || h.UpdatedBy != adminName {
		t.Fatalf("stored hook %+v", h)
	}

	// A member machine syncs it, and its engine runs it as the team's.
	m := newMember(t, srv, memberToken, team.Linux)
	if res := m.sync(t); res.Hooks != 1 || res.Revision != 1 {
		t.Fatalf("sync: %+v", res)
	}
	loc := config.Locations{EnterpriseFile: filepath.Join(t.TempDir(), "none.json"), Home: m.home}
	d, err := loadEngine(t, loc, nil).Run(ctx, event.BeforeShellExecution, &event.BeforeShellExecutionInput{Command: "git push origin main", Cwd: m.home})
	if err != nil {
		t.Fatal(err)
	}
	if d.Permission != event.Deny || d.UserMessage != "pushes are off (dashboard)" || len(d.Hooks) != 1 ||
		d.Hooks[0].Hook.Source != config.Team || d.Hooks[0].Hook.Dir != m.hooksDir(platform.ID) {
		t.Fatalf("decision %s %q, hooks %+v", d.Permission, d.UserMessage, d.Hooks)
	}

	// Edit: the form opens with the hook's values; the change is saved.
	b.do(t, "edit the hook", chromedp.Click(chromedp.CSS(row+" button.edit")), chromedp.WaitVisible(chromedp.ID("editor")))
	if got := eval[[]string](t, b, `["script-name", "matcher", "timeout", "script"].map(id => document.getElementById(id).value)`); !slices.Equal(got, []string{"deny-push.sh", "^git push", "5", dashboardScript}) {
		t.Errorf("the editor shows %q", got)
	}
	b.do(t, "change the timeout",
		clearField("timeout"),
		chromedp.SendKeys(chromedp.ID("timeout"), "7"),
		chromedp.Click(chromedp.ID("save-hook")),
	)
	b.waitFor(t, "the update", fmt.Sprintf(`document.querySelector(%q)?.cells[4].textContent === "7 s" && document.querySelector('#history tbody tr[data-action="update"]') !== null`, row))

	// A row an older server accepted (a timeout members refuse) is
	// pointed out, in the page, with what is wrong.
	plant(t, srv.dbURL, snap.Hooks[0].ID, "deny-push.sh", 1e10)

	// Switch it off in the page; the next sync removes it.
	b.do(t, "deactivate the hook", chromedp.Click(chromedp.CSS(row+" button.toggle")))
	b.waitFor(t, "the hook inactive", fmt.Sprintf(`document.querySelector(%q)?.classList.contains("inactive") && document.querySelector('#history tbody tr[data-action="deactivate"]') !== null`, row))
	b.waitFor(t, "the broken row pointed out", fmt.Sprintf(`!document.getElementById("problems").hidden && document.querySelector(%q).classList.contains("broken")`, row))
	if got := eval[string](t, b, `document.querySelector("#problems li").textContent`); got != "deny-push.sh: timeout_seconds: must be 0 (the default) or a positive number of seconds below 9223372036, got 1e+10" {
		t.Errorf("the problem shown: %q", got)
	}
	if got := rowCells(t, b, "#history tbody tr"); len(got) != 3 || got[0][2] != "deactivate" || got[1][2] != "update" || got[2][2] != "create" {
		t.Errorf("history %q", got)
	}
	shot, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	checkPNG(t, shot)
	if err := os.WriteFile(filepath.Join(t.TempDir(), "dashboard.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(screenshotCopy, shot, 0o644); err != nil {
		t.Logf("a copy of the screenshot could not be left at %s: %v", screenshotCopy, err)
	}

	if res := m.sync(t); res.Hooks != 0 || res.Revision != 4 || !res.Changed {
		t.Fatalf("sync after the deactivation: %+v", res)
	}
	if got := files(t, m.hooksDir(platform.ID)); !slices.Equal(got, []string{"hooks.json"}) {
		t.Fatalf("after the deactivation the hooks folder holds %v", got)
	}
	d, err = loadEngine(t, loc, nil).Run(ctx, event.BeforeShellExecution, &event.BeforeShellExecutionInput{Command: "git push origin main", Cwd: m.home})
	if err != nil || d.Permission == event.Deny || len(d.Hooks) != 0 {
		t.Fatalf("after the deactivation: %v, %v, hooks %+v", d.Permission, err, d.Hooks)
	}

	// Delete asks first; declined, nothing happens; accepted, it is gone.
	b.do(t, "delete, declined", chromedp.Click(chromedp.CSS(row+" button.delete")))
	b.setAcceptDialogs(true)
	b.do(t, "delete, accepted", chromedp.Click(chromedp.CSS(row+" button.delete")))
	b.waitFor(t, "the hook gone", fmt.Sprintf(`document.querySelector(%q) === null && !document.getElementById("no-hooks").hidden && document.querySelector('#history tbody tr[data-action="delete"]') !== null`, row))
	if got := b.dialogsSeen(); len(got) != 2 || !strings.HasPrefix(got[0], "confirm: Delete the hook deny-push.sh?") {
		t.Errorf("dialogs %q", got)
	}
	if got := rowCells(t, b, "#history tbody tr"); len(got) != 4 {
		t.Errorf("history after one declined and one accepted delete: %q", got)
	}

	// Signing out forgets the token.
	b.do(t, "sign out", chromedp.Click(chromedp.ID("sign-out")), chromedp.WaitVisible(chromedp.ID("token")))
	if eval[bool](t, b, `sessionStorage.length !== 0 || !document.getElementById("app").hidden`) {
		t.Error("signing out left the token or the page")
	}

	if p := b.problems(); len(p) > 0 {
		t.Errorf("the page's console shows problems:\n%s", strings.Join(p, "\n"))
	}
}

// checkPNG fails unless shot is a PNG image of some size.
func checkPNG(t *testing.T, shot []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if r := img.Bounds(); r.Dx() < 100 || r.Dy() < 100 {
		t.Fatalf("the screenshot is %dx%d", r.Dx(), r.Dy())
	}
}
