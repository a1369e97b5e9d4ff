package teamsync_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamsync/faketeam"
)

func TestFirstSyncNeedsAcceptance(t *testing.T) {
	srv := newServer(t)
	home := t.TempDir()
	c := newClient(t, srv.URL, home)
	before := snapshot(t, home)

	_, err := c.Sync(context.Background(), nil)
	var na *teamsync.NotAcceptedError
	if !errors.As(err, &na) || !errors.Is(err, teamsync.ErrNotAccepted) {
		t.Fatalf("want a NotAcceptedError, got %v", err)
	}
	notice := na.Plan.Notice()
	for _, want := range []string{"This team uses admin-enabled hooks", `"Acme"`, "beforeShellExecution", "guard.sh", "afterFileEdit", "audit.sh", "matcher ^git push"} {
		if !strings.Contains(notice, want) {
			t.Errorf("notice lacks %q:\n%s", want, notice)
		}
	}
	if !strings.Contains(err.Error(), "--accept") || !strings.Contains(err.Error(), "--show") {
		t.Errorf("the error does not say how to go on: %v", err)
	}
	sameSnapshot(t, "home after a declined first sync", before, snapshot(t, home))

	// A confirm that declines is the same as none.
	declined := false
	_, err = c.Sync(context.Background(), func(context.Context, *teamsync.Plan) (bool, error) { declined = true; return false, nil })
	if !declined || !errors.Is(err, teamsync.ErrNotAccepted) {
		t.Fatalf("declined: asked=%v err=%v", declined, err)
	}
	sameSnapshot(t, "home after a declined first sync", before, snapshot(t, home))

	res := mustSync(t, c)
	if !res.Changed || res.TeamID != teamID || res.Hooks != 2 || res.Dir != hooksDir(home) {
		t.Fatalf("result %+v", res)
	}
	got := readDir(t, hooksDir(home))
	if got["guard.sh"] != goodSet()[0].ScriptContent || got["audit.sh"] != goodSet()[1].ScriptContent || len(got) != 3 {
		t.Fatalf("hooks folder: %v", got)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(got["hooks.json"]), &doc); err != nil {
		t.Fatal(err)
	}
	want := `{"hooks":{"afterFileEdit":[{"command":"./audit.sh"}],"beforeShellExecution":[{"command":"./guard.sh","failClosed":true,"matcher":"^git push","timeout":5}]},"version":1}`
	if b, _ := json.Marshal(doc); string(b) != want {
		t.Fatalf("manifest\n got %s\nwant %s", b, want)
	}
	if runtime.GOOS != "windows" {
		for _, name := range []string{"guard.sh", "audit.sh"} {
			fi, _ := os.Stat(filepath.Join(hooksDir(home), name))
			if fi.Mode().Perm() != 0o755 {
				t.Errorf("%s mode %v, want 0755", name, fi.Mode().Perm())
			}
		}
	}
	st, err := c.LastSynced()
	if err != nil || st == nil || !st.Accepted || st.Revision != srv.Revision() || st.TeamName != "Acme" || st.LastSuccess.IsZero() || len(st.Files) != 3 {
		t.Fatalf("state %+v, %v", st, err)
	}
	// Once accepted, later syncs need no acceptance.
	srv.SetHooks(faketeam.Hook(3, "stop", "stop.sh", "#!/bin/sh\n"))
	if _, err := c.Sync(context.Background(), nil); err != nil {
		t.Fatalf("a later sync asked for acceptance again: %v", err)
	}
	for _, r := range srv.Requests() {
		if r.Authorization != "Bearer "+testToken || !r.Msg.GetActiveOnly() || r.Msg.GetOperatingSystem() != team.Linux {
			t.Fatalf("request %+v", r)
		}
	}
}

func TestUpdateReplacesTheWholeSet(t *testing.T) {
	srv := newServer(t)
	home := t.TempDir()
	c := newClient(t, srv.URL, home)
	mustSync(t, c)
	rev := srv.Revision()

	set := goodSet()
	set[0].ScriptContent = script("deny", "guard v2") // changed script
	added := faketeam.Hook(4, "beforeReadFile", "secrets.sh", "#!/bin/sh\necho '{}'\n")
	srv.SetHooks(set[0], added) // audit.sh removed
	res := mustSync(t, c)
	if !res.Changed || res.Revision != rev+1 {
		t.Fatalf("result %+v", res)
	}
	got := readDir(t, hooksDir(home))
	if len(got) != 3 || got["guard.sh"] != set[0].ScriptContent || got["secrets.sh"] != added.ScriptContent {
		t.Fatalf("hooks folder: %v", got)
	}
	if _, ok := got["audit.sh"]; ok {
		t.Fatal("the removed hook's script is still there")
	}
	if !strings.Contains(got["hooks.json"], "./secrets.sh") || strings.Contains(got["hooks.json"], "audit") {
		t.Fatalf("manifest %s", got["hooks.json"])
	}
	reqs := srv.Requests()
	if kr := reqs[len(reqs)-1].Msg.GetKnownRevision(); kr != rev {
		t.Fatalf("known_revision %d, want %d", kr, rev)
	}
	// No staging or old folders are left behind.
	entries, _ := os.ReadDir(filepath.Dir(hooksDir(home)))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "hooks sync.json sync.lock" {
		t.Fatalf("team folder holds %v", names)
	}
}

func TestUnchangedRevisionWritesNoHookFile(t *testing.T) {
	srv := newServer(t)
	home := t.TempDir()
	c := newClient(t, srv.URL, home)
	mustSync(t, c)
	dir := hooksDir(home)
	before := snapshot(t, dir)
	dirInfo, _ := os.Stat(dir)

	res := mustSync(t, c)
	if res.Changed || res.Revision != srv.Revision() {
		t.Fatalf("result %+v", res)
	}
	reqs := srv.Requests()
	if kr := reqs[len(reqs)-1].Msg.GetKnownRevision(); kr != srv.Revision() {
		t.Fatalf("known_revision %d, want %d", kr, srv.Revision())
	}
	sameSnapshot(t, "hooks folder after an unchanged sync", before, snapshot(t, dir))
	if now, _ := os.Stat(dir); !os.SameFile(dirInfo, now) {
		t.Fatal("the hooks folder was replaced")
	}

	// A server that ignores known_revision and sends the same set again
	// (under a new revision) causes no write either.
	srv.SetRaw(true)
	srv.SetHooks(goodSet()...)
	res = mustSync(t, c)
	if res.Changed || res.Revision != srv.Revision() {
		t.Fatalf("result %+v", res)
	}
	sameSnapshot(t, "hooks folder after the same set again", before, snapshot(t, dir))
	if st, _ := c.LastSynced(); st.Revision != srv.Revision() {
		t.Fatalf("state revision %d, want %d", st.Revision, srv.Revision())
	}
}

func TestDamagedFolderIsRepaired(t *testing.T) {
	srv := newServer(t)
	home := t.TempDir()
	c := newClient(t, srv.URL, home)
	mustSync(t, c)
	dir := hooksDir(home)
	if err := os.Remove(filepath.Join(dir, "audit.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "guard.sh"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := mustSync(t, c)
	reqs := srv.Requests()
	if kr := reqs[len(reqs)-1].Msg.GetKnownRevision(); kr != 0 || !res.Changed {
		t.Fatalf("known_revision %d changed %v: a damaged folder must be fetched whole and rewritten", kr, res.Changed)
	}
	got := readDir(t, dir)
	if got["guard.sh"] != goodSet()[0].ScriptContent || got["audit.sh"] != goodSet()[1].ScriptContent {
		t.Fatalf("not repaired: %v", got)
	}
}

func TestTokenMovedToAnotherTeam(t *testing.T) {
	srv := newServer(t)
	home := t.TempDir()
	c := newClient(t, srv.URL, home)
	mustSync(t, c)
	// The token now belongs to team 8, whose revision happens to be the
	// one we know: the server answers "unchanged", for team 8.
	rev := srv.Revision()
	srv.SetTeam(8, "Beta")
	srv.SetHooks(faketeam.Hook(9, "stop", "beta.sh", "#!/bin/sh\n"))
	srv.SetRevision(rev)
	_, err := c.Sync(context.Background(), nil)
	var na *teamsync.NotAcceptedError
	if !errors.As(err, &na) || na.Plan.TeamID != 8 {
		t.Fatalf("a new team must be accepted: %v", err)
	}
	reqs := srv.Requests()
	if a, b := reqs[len(reqs)-2].Msg.GetKnownRevision(), reqs[len(reqs)-1].Msg.GetKnownRevision(); a != rev || b != 0 {
		t.Fatalf("known revisions %d then %d, want %d then 0", a, b, rev)
	}
	res := mustSync(t, c)
	if res.TeamID != 8 {
		t.Fatalf("result %+v", res)
	}
	if got := readDir(t, filepath.Join(home, ".cursor", "managed", "team_8", "hooks")); got["beta.sh"] == "" {
		t.Fatalf("team 8: %v", got)
	}
	// Team 7's folder stays as it was: leaving a team is the user's call.
	if got := readDir(t, hooksDir(home)); got["guard.sh"] == "" {
		t.Fatalf("team 7: %v", got)
	}
}

func TestFolderOfAnotherServerIsNotTaken(t *testing.T) {
	a := newServer(t)
	b := newServer(t) // also team 7, elsewhere
	home := t.TempDir()
	mustSync(t, newClient(t, a.URL, home))
	before := snapshot(t, home)
	_, err := newClient(t, b.URL, home).Sync(context.Background(), teamsync.AcceptAll)
	if err == nil || !strings.Contains(err.Error(), "synced from "+a.URL) {
		t.Fatalf("want a refusal naming the other server, got %v", err)
	}
	sameSnapshot(t, "home", before, snapshot(t, home))
}

func TestFolderNotWrittenBySyncIsNotTaken(t *testing.T) {
	srv := newServer(t)
	home := t.TempDir()
	dir := hooksDir(home)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hooks.json"), []byte(`{"version":1,"hooks":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, home)
	_, err := newClient(t, srv.URL, home).Sync(context.Background(), teamsync.AcceptAll)
	if err == nil || !strings.Contains(err.Error(), "not written by agenthooks sync") {
		t.Fatalf("got %v", err)
	}
	sameSnapshot(t, "home", before, snapshot(t, home))
}

func TestWrongOSHooksAreSkippedWithAWarning(t *testing.T) {
	srv := newServer(t)
	srv.SetRaw(true) // sends every hook, whatever the request asked
	mac := faketeam.Hook(5, "stop", "mac.sh", "#!/bin/sh\n")
	mac.OperatingSystems = []string{team.Macintosh}
	inactive := faketeam.Hook(6, "stop", "off.sh", "#!/bin/sh\n")
	inactive.IsActive = false
	both := faketeam.Hook(8, "stop", "both.sh", "#!/bin/sh\n")
	both.OperatingSystems = []string{team.Macintosh, team.Linux}
	srv.SetHooks(append(goodSet(), mac, inactive, both)...)
	home := t.TempDir()
	res := mustSync(t, newClient(t, srv.URL, home))
	got := readDir(t, hooksDir(home))
	if _, ok := got["mac.sh"]; ok {
		t.Fatal("a Macintosh hook was installed on Linux")
	}
	if _, ok := got["off.sh"]; ok {
		t.Fatal("an inactive hook was installed")
	}
	if got["both.sh"] == "" || res.Hooks != 3 {
		t.Fatalf("hooks %d, folder %v", res.Hooks, got)
	}
	w := strings.Join(res.Warnings, "\n")
	if !strings.Contains(w, `hook 5 ("mac.sh", stop): skipped: it targets Macintosh, and this machine is Linux`) || !strings.Contains(w, "hook 6") {
		t.Fatalf("warnings %q", res.Warnings)
	}
}

func TestShowFetchesEverythingAndWritesNothing(t *testing.T) {
	srv := newServer(t)
	home := t.TempDir()
	c := newClient(t, srv.URL, home)
	mustSync(t, c)
	before := snapshot(t, home)
	p, err := c.FetchAll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if kr := reqs[len(reqs)-1].Msg.GetKnownRevision(); kr != 0 || len(p.Hooks) != 2 {
		t.Fatalf("known_revision %d, %d hooks", kr, len(p.Hooks))
	}
	var b strings.Builder
	if err := p.Show(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"guard v1", "matcher: ^git push", "timeout: 5s", "failClosed: true", "command: ./guard.sh"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("show lacks %q:\n%s", want, b.String())
		}
	}
	sameSnapshot(t, "home", before, snapshot(t, home))
}

// TestInterruptedSyncIsRecovered: a sync killed between the two renames
// of the fallback swap (no live folder, the old one aside) and a staging
// folder left behind are put right by the next sync.
func TestInterruptedSyncIsRecovered(t *testing.T) {
	srv := newServer(t)
	home := t.TempDir()
	c := newClient(t, srv.URL, home)
	mustSync(t, c)
	team := filepath.Dir(hooksDir(home))
	want := readDir(t, hooksDir(home))
	if err := os.Rename(hooksDir(home), filepath.Join(team, "hooks.old-0123")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(team, "hooks.new-4567", "half.sh"), "#!/bin/sh\n")
	res := mustSync(t, c)
	if res.Changed {
		t.Fatal("the set was rewritten; the old one should have been put back")
	}
	if got := readDir(t, hooksDir(home)); len(got) != len(want) || got["guard.sh"] != want["guard.sh"] {
		t.Fatalf("hooks folder %v", got)
	}
	entries, _ := os.ReadDir(team)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "hooks sync.json sync.lock" {
		t.Fatalf("team folder holds %v", names)
	}
}
