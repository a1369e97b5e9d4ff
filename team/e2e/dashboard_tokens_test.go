//go:build unix

package e2e

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/chromedp/chromedp"

	"github.com/agenthooks/agenthooks/team/dashboard"
	"github.com/agenthooks/agenthooks/team/store"
	"github.com/agenthooks/agenthooks/team/teamv1"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

// TestDashboardTokensAndRevisionDiff drives the dashboard in headless
// Chromium: a member token made in the page shows its secret once, works
// against the API, and is revoked in the page; a revision of the
// History shows the diff of the script it changed.
func TestDashboardTokensAndRevisionDiff(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, "sqlite:"+filepath.Join(t.TempDir(), "team.db"), dashboard.Handler())
	platform, err := srv.store.CreateTeam(ctx, "platform")
	if err != nil {
		t.Fatal(err)
	}
	adm := srv.adminClient()
	hook := &teamv1.TeamHook{HookStep: "beforeShellExecution", ScriptName: "guard.sh", IsActive: true, Matcher: "^git push",
		ScriptContent: "#!/bin/sh\ncat >/dev/null\necho '{\"permission\":\"deny\",\"user_message\":\"old words\"}'\n"}
	if _, err := adm.SetTeamHooks(ctx, connect.NewRequest(&teamv1.SetTeamHooksRequest{TeamId: platform.ID, Hooks: []*teamv1.TeamHook{hook}})); err != nil {
		t.Fatal(err)
	}
	hook.ScriptContent = "#!/bin/sh\ncat >/dev/null\necho '{\"permission\":\"deny\",\"user_message\":\"new words\"}'\n"
	hook.Matcher = "^git (push|send-pack)"
	if res, err := adm.SetTeamHooks(ctx, connect.NewRequest(&teamv1.SetTeamHooksRequest{TeamId: platform.ID, Hooks: []*teamv1.TeamHook{hook}})); err != nil || res.Msg.Revision != 2 {
		t.Fatalf("the second revision: %v, %v", res, err)
	}

	b := startBrowser(t)
	if _, err := chromedp.Run(b.ctx, chromedp.Navigate(srv.url+"/")); err != nil {
		t.Fatal(err)
	}
	b.do(t, "sign in",
		chromedp.WaitVisible(chromedp.ID("token")),
		chromedp.SendKeys(chromedp.ID("token"), srv.admin),
		chromedp.Click(chromedp.CSS(`#sign-in-form button[type=submit]`)),
	)
	b.waitFor(t, "the team's history", `document.querySelectorAll("#history tbody tr").length === 2`)

	// The diff of revision 2: the script's changed line, removed and added,
	// and the matcher's change.
	b.do(t, "open revision 2", chromedp.Click(chromedp.CSS(`#history tbody tr:first-child button.diff`)))
	b.waitFor(t, "the revision's diff", `!document.getElementById("revision-diff").hidden && document.querySelectorAll("#revision-diff pre.diff").length === 2`)
	if title := eval[string](t, b, `document.getElementById("revision-diff-title").textContent`); title != "Revision 2" {
		t.Errorf("the diff's title: %q", title)
	}
	lines := eval[[]string](t, b, `Array.from(document.querySelectorAll("#revision-diff pre.script span")).map((s) => s.className + " " + s.textContent)`)
	want := []string{"same  #!/bin/sh", "same  cat >/dev/null",
		`del -echo '{"permission":"deny","user_message":"old words"}'`, `add +echo '{"permission":"deny","user_message":"new words"}'`}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("the script's diff:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if opts := eval[string](t, b, `document.querySelector("#revision-diff pre.options").textContent`); !strings.Contains(opts, `-matcher: "^git push"`) || !strings.Contains(opts, `+matcher: "^git (push|send-pack)"`) {
		t.Errorf("the options' diff: %q", opts)
	}

	// A member token made in the page: its secret shown once.
	b.do(t, "create a member token",
		chromedp.SendKeys(chromedp.ID("token-name"), "laptops-berlin"),
		chromedp.SetValue(chromedp.ID("token-role"), "member"),
		chromedp.Click(chromedp.ID("create-token")),
	)
	b.waitFor(t, "the new secret", `!document.getElementById("new-secret").hidden && document.querySelector('#tokens tbody tr[data-name="laptops-berlin"]') !== null`)
	secret := eval[string](t, b, `document.getElementById("new-secret-value").textContent`)
	if !strings.HasPrefix(secret, store.SecretPrefix) {
		t.Fatalf("the secret shown: %q", secret)
	}
	member := teamv1connect.NewTeamHooksServiceClient(srv.client, srv.url, connect.WithInterceptors(bearer(secret)))
	if res, err := member.GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{})); err != nil || res.Msg.TeamId != platform.ID || len(res.Msg.Hooks) != 1 {
		t.Fatalf("the new token against the API: %v, %v", res, err)
	}
	toks, err := srv.store.ListTokens(ctx, platform.ID)
	if err != nil || len(toks) != 1 || toks[0].Name != "laptops-berlin" || toks[0].Role != store.RoleMember {
		t.Fatalf("the team's tokens: %+v, %v", toks, err)
	}
	// Shown once: gone after Done, and nowhere in the page or the list.
	b.do(t, "dismiss the secret", chromedp.Click(chromedp.ID("new-secret-done")))
	if eval[bool](t, b, fmt.Sprintf(`document.body.innerHTML.includes(%q) || !document.getElementById("new-secret").hidden`, secret)) {
		t.Error("the secret is still in the page after Done")
	}
	b.do(t, "reload the tokens", chromedp.Reload())
	b.waitFor(t, "the token listed", `document.querySelector('#tokens tbody tr[data-name="laptops-berlin"]') !== null`)
	if eval[bool](t, b, fmt.Sprintf(`document.body.innerHTML.includes(%q)`, secret)) {
		t.Error("the secret is in the page after a reload")
	}
	// The audit's token filter offers it.
	if !eval[bool](t, b, `Array.from(document.querySelectorAll("#filter-token option")).some((o) => o.textContent === "laptops-berlin")`) {
		t.Error("the audit's token filter does not offer the new token")
	}

	// Revoked in the page: refused at once.
	b.setAcceptDialogs(true)
	b.do(t, "revoke the token", chromedp.Click(chromedp.CSS(`#tokens tbody tr[data-name="laptops-berlin"] button.revoke`)))
	b.waitFor(t, "the token gone", `document.querySelector('#tokens tbody tr[data-name="laptops-berlin"]') === null`)
	_, err = member.GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{}))
	var ce *connect.Error
	if !errors.As(err, &ce) || ce.Code() != connect.CodeUnauthenticated {
		t.Fatalf("the revoked token against the API: %v", err)
	}
	if d := b.dialogsSeen(); len(d) != 1 || !strings.Contains(d[0], "Revoke the token laptops-berlin?") {
		t.Errorf("the dialogs: %q", d)
	}
	if p := b.problems(); len(p) > 0 {
		t.Errorf("the page reported problems: %q", p)
	}
}
