//go:build unix

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/team"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

// denyScript is a hook that denies with msg, followed by the folder it
// runs from, so a test can see where the engine ran it.
func denyScript(msg string) string {
	return fmt.Sprintf("#!/bin/sh\ncat >/dev/null\nprintf '{\"permission\":\"deny\",\"user_message\":\"%s in %%s\"}\\n' \"$(pwd)\"\n", msg)
}

// sourceHooks is a hooks.json of beforeShellExecution hooks, each an
// inline shell command answering with a permission and a message.
func sourceHooks(hooks ...[3]string) string {
	var entries []string
	for _, h := range hooks { // matcher, permission, message
		cmd := fmt.Sprintf(`cat >/dev/null; echo '{"permission":"%s","user_message":"%s"}'`, h[1], h[2])
		entries = append(entries, fmt.Sprintf(`{"command":%q,"matcher":%q}`, cmd, h[0]))
	}
	return `{"version":1,"hooks":{"beforeShellExecution":[` + strings.Join(entries, ",") + `]}}`
}

// trustAll trusts every project: the test's workspace is its own.
type trustAll struct{}

func (trustAll) Check(string, string, []byte) (bool, string) { return true, "the test's own workspace" }

// TestTeamHooksFromAPIToEngine: an administrator creates hooks for two
// systems through the API; each member machine syncs those of its
// system; the engine loads them as the team source, between enterprise
// and project, runs them from the managed folder, and merges their
// answers in that order. A hook switched off through the API is gone
// after the next sync.
func TestTeamHooksFromAPIToEngine(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { testTeamHooksFromAPIToEngine(t, b) })
	}
}

func testTeamHooksFromAPIToEngine(t *testing.T, b backend) {
	ctx := context.Background()
	srv := startServer(t, b.url(t), nil)
	adm := srv.adminClient()

	created, err := adm.CreateTeam(ctx, connect.NewRequest(&teamv1.CreateTeamRequest{Name: "platform"}))
	if err != nil {
		t.Fatalf("CreateTeam: %v", err)
	}
	teamID := created.Msg.Team.Id
	tok, err := adm.CreateToken(ctx, connect.NewRequest(&teamv1.CreateTokenRequest{Name: "laptops", Role: "member", TeamId: teamID}))
	if err != nil {
		t.Fatalf("CreateToken: %v", err)
	}
	create := func(h *teamv1.TeamHook) *teamv1.TeamHook {
		t.Helper()
		res, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: teamID, Hook: h}))
		if err != nil {
			t.Fatalf("CreateHook %s: %v", h.ScriptName, err)
		}
		return res.Msg.Hook
	}
	guard := create(&teamv1.TeamHook{
		HookStep: "beforeShellExecution", ScriptName: "guard.sh", OperatingSystems: []string{"Linux", "Macintosh"},
		IsActive: true, ScriptContent: denyScript("team: no pushes"), Matcher: "^git push", TimeoutSeconds: 10, FailClosed: true,
	})
	create(&teamv1.TeamHook{
		HookStep: "beforeShellExecution", ScriptName: "guard.ps1", OperatingSystems: []string{"Windows"},
		IsActive: true, ScriptContent: "$null = [Console]::In.ReadToEnd()\n'{\"permission\":\"deny\"}'\n", Matcher: "^git push",
	})

	// A Linux machine gets the Linux hook only.
	linux := newMember(t, srv, tok.Msg.Secret, team.Linux)
	res := linux.sync(t)
	if res.TeamID != teamID || res.Revision != 2 || res.Hooks != 1 || !res.Changed {
		t.Fatalf("Linux sync: %+v", res)
	}
	dir := linux.hooksDir(teamID)
	if got := files(t, dir); !slices.Equal(got, []string{"guard.sh", "hooks.json"}) {
		t.Fatalf("Linux hooks folder holds %v", got)
	}
	// A Windows machine gets the PowerShell one, run the way Windows can.
	windows := newMember(t, srv, tok.Msg.Secret, team.Windows)
	if res := windows.sync(t); res.Hooks != 1 {
		t.Fatalf("Windows sync: %+v", res)
	}
	if got := files(t, windows.hooksDir(teamID)); !slices.Equal(got, []string{"guard.ps1", "hooks.json"}) {
		t.Fatalf("Windows hooks folder holds %v", got)
	}
	manifest, err := os.ReadFile(filepath.Join(windows.hooksDir(teamID), "hooks.json"))
	if err != nil || !strings.Contains(string(manifest), "powershell -NoProfile -ExecutionPolicy Bypass -File ./guard.ps1") {
		t.Fatalf("Windows manifest %s, %v", manifest, err)
	}

	// Every source has a say on `git push`.
	work := t.TempDir()
	ws := filepath.Join(work, "ws")
	ent := filepath.Join(work, "etc", "hooks.json")
	writeFile(t, ent, sourceHooks([3]string{"--force", "deny", "enterprise: no force"}))
	writeFile(t, config.ProjectFile(ws), sourceHooks([3]string{"^git push", "deny", "project: no pushes"}))
	writeFile(t, config.UserFile(linux.home), sourceHooks(
		[3]string{"", "allow", "user: anything goes"},
		[3]string{"^git push", "deny", "user: no pushes"},
	))
	loc := config.Locations{EnterpriseFile: ent, Home: linux.home, WorkspaceRoots: []string{ws}}

	set := config.Load(loc, trustAll{})
	if len(set.Problems) > 0 {
		t.Fatalf("problems: %v", set.Problems)
	}
	var sources []config.Source
	for _, h := range set.Hooks {
		sources = append(sources, h.Source)
	}
	wantSources := []config.Source{config.Enterprise, config.Team, config.Project, config.User, config.User}
	if !slices.Equal(sources, wantSources) {
		t.Fatalf("sources in priority order %v, want %v", sources, wantSources)
	}
	th := set.Hooks[1]
	if th.Command != "./guard.sh" || th.Dir != dir || th.Matcher != "^git push" || th.Timeout.Seconds() != 10 || !th.FailClosed {
		t.Fatalf("team hook %+v", th)
	}

	eng := loadEngine(t, loc, trustAll{})
	run := func(command string) (event.Permission, string) {
		t.Helper()
		d, err := eng.Run(ctx, event.BeforeShellExecution, &event.BeforeShellExecutionInput{Command: command, Cwd: ws})
		if err != nil {
			t.Fatal(err)
		}
		return d.Permission, d.UserMessage
	}
	teamMsg := "team: no pushes in " + dir
	perm, msg := run("git push --force origin main")
	if want := "enterprise: no force\n" + teamMsg + "\nproject: no pushes\nuser: no pushes"; perm != event.Deny || msg != want {
		t.Errorf("git push --force: %s %q, want deny %q", perm, msg, want)
	}
	// The user's allow loosens nothing: the team's deny stands, its
	// message first.
	perm, msg = run("git push origin main")
	if want := teamMsg + "\nproject: no pushes\nuser: no pushes"; perm != event.Deny || msg != want {
		t.Errorf("git push: %s %q, want deny %q", perm, msg, want)
	}
	// The team's matcher came through: other commands pass it by.
	if perm, msg = run("ls"); perm != event.Allow || msg != "user: anything goes" {
		t.Errorf("ls: %s %q, want allow", perm, msg)
	}

	// Switched off through the API, the hook is gone after a sync.
	if _, err := adm.SetHookActive(ctx, connect.NewRequest(&teamv1.SetHookActiveRequest{Id: guard.Id, Active: false})); err != nil {
		t.Fatalf("SetHookActive: %v", err)
	}
	if res := linux.sync(t); res.Revision != 3 || res.Hooks != 0 || !res.Changed {
		t.Fatalf("sync after the deactivation: %+v", res)
	}
	if got := files(t, dir); !slices.Equal(got, []string{"hooks.json"}) {
		t.Fatalf("after the deactivation the hooks folder holds %v", got)
	}
	eng = loadEngine(t, loc, trustAll{})
	for _, h := range eng.Hooks() {
		if h.Source == config.Team {
			t.Errorf("a team hook is still loaded: %+v", h)
		}
	}
	perm, msg = run("git push origin main")
	if want := "project: no pushes\nuser: no pushes"; perm != event.Deny || msg != want {
		t.Errorf("git push after the deactivation: %s %q, want deny %q", perm, msg, want)
	}

	// The history names every change and who made it.
	hist, err := adm.ListHistory(ctx, connect.NewRequest(&teamv1.ListHistoryRequest{TeamId: teamID}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range hist.Msg.Changes {
		got = append(got, fmt.Sprintf("%d %s %s %s", c.Revision, c.Action, c.ScriptName, c.Actor))
	}
	want := []string{"3 deactivate guard.sh alice", "2 create guard.ps1 alice", "1 create guard.sh alice"}
	if !slices.Equal(got, want) {
		t.Errorf("history %q, want %q", got, want)
	}
}
