package config

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// mapTrust trusts the files it maps to true.
type mapTrust map[string]bool

func (m mapTrust) Check(root, file string, content []byte) (bool, string) {
	if m[file] {
		return true, "pinned"
	}
	return false, "the file changed since it was trusted"
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hooksJSON is a valid file with one stop hook per command.
func hooksJSON(commands ...string) string {
	var hs []string
	for _, c := range commands {
		hs = append(hs, `{"command": "`+c+`"}`)
	}
	return `{"version": 1, "hooks": {"stop": [` + strings.Join(hs, ", ") + `]}}`
}

// fixture is a temporary machine: an enterprise file, a home with user
// and team hooks, and two workspace roots.
type fixture struct {
	dir, ent, home, ws1, ws2 string
}

func newFixture(t *testing.T) fixture {
	d := t.TempDir()
	f := fixture{
		dir:  d,
		ent:  filepath.Join(d, "etc", "cursor", "hooks.json"),
		home: filepath.Join(d, "home"),
		ws1:  filepath.Join(d, "ws1"),
		ws2:  filepath.Join(d, "ws2"),
	}
	for _, p := range []string{f.home, f.ws1, f.ws2} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f fixture) loc() Locations {
	return Locations{Settings: testSettings, EnterpriseFile: f.ent, Home: f.home, WorkspaceRoots: []string{f.ws1, f.ws2}}
}

func (f fixture) team(id string) string {
	return filepath.Join(f.home, ".cursor", "managed", "team_"+id, "hooks", "hooks.json")
}

func commands(hooks []*Hook) []string {
	var out []string
	for _, h := range hooks {
		out = append(out, h.Command)
	}
	return out
}

func TestLoadAllSources(t *testing.T) {
	f := newFixture(t)
	writeFile(t, f.ent, hooksJSON("ent1", "ent2"))
	writeFile(t, f.team("10"), hooksJSON("team10"))
	writeFile(t, f.team("2"), hooksJSON("team2"))
	writeFile(t, f.team("b"), hooksJSON("teamb"))
	writeFile(t, f.team("abc"), hooksJSON("teamabc"))
	writeFile(t, filepath.Join(f.home, ".cursor", "managed", "team_3", "README"), "no hooks folder") // no hooks: no source
	writeFile(t, ProjectFile(f.ws1), hooksJSON("ws1"))
	writeFile(t, ProjectFile(f.ws2), hooksJSON("ws2"))
	writeFile(t, UserFile(f.home), hooksJSON("user"))
	trust := mapTrust{ProjectFile(f.ws1): true, ProjectFile(f.ws2): true}

	set := Load(f.loc(), trust)
	if len(set.Problems) != 0 {
		t.Fatalf("problems: %q", problemStrings(set.Problems))
	}
	want := []string{"ent1", "ent2", "team2", "team10", "teamabc", "teamb", "ws1", "ws2", "user"}
	if got := commands(set.Hooks); !slices.Equal(got, want) {
		t.Fatalf("order = %q, want %q", got, want)
	}
	teamDir := func(id string) string { return filepath.Dir(f.team(id)) }
	wantHooks := []struct {
		src             Source
		file, dir, root string
	}{
		{Enterprise, f.ent, filepath.Dir(f.ent), f.ws1},
		{Enterprise, f.ent, filepath.Dir(f.ent), f.ws1},
		{Team, f.team("2"), teamDir("2"), f.ws1},
		{Team, f.team("10"), teamDir("10"), f.ws1},
		{Team, f.team("abc"), teamDir("abc"), f.ws1},
		{Team, f.team("b"), teamDir("b"), f.ws1},
		{Project, ProjectFile(f.ws1), f.ws1, f.ws1},
		{Project, ProjectFile(f.ws2), f.ws2, f.ws2},
		{User, UserFile(f.home), filepath.Join(f.home, ".cursor"), f.ws1},
	}
	for i, w := range wantHooks {
		h := set.Hooks[i]
		if h.Source != w.src || h.File != w.file || h.Dir != w.dir || h.Root != w.root {
			t.Errorf("hook %d (%s): got %v %s dir=%s root=%s; want %v %s dir=%s root=%s",
				i, h.Command, h.Source, h.File, h.Dir, h.Root, w.src, w.file, w.dir, w.root)
		}
	}
	if len(set.Files) != 8 {
		t.Errorf("got %d files, want 8", len(set.Files))
	}
	for _, file := range set.Files {
		if !file.Trusted {
			t.Errorf("%s not trusted", file.Path)
		}
	}
}

func TestLoadNoWorkspaceRoot(t *testing.T) {
	f := newFixture(t)
	writeFile(t, UserFile(f.home), hooksJSON("user"))
	loc := f.loc()
	loc.WorkspaceRoots = nil
	set := Load(loc, nil)
	if len(set.Hooks) != 1 || set.Hooks[0].Root != "" || set.Hooks[0].Dir != filepath.Join(f.home, ".cursor") {
		t.Fatalf("hooks: %+v", set.Hooks)
	}
}

func TestLoadNothing(t *testing.T) {
	f := newFixture(t)
	set := Load(f.loc(), nil)
	if len(set.Files) != 0 || len(set.Hooks) != 0 || len(set.Problems) != 0 {
		t.Fatalf("empty machine loaded %d files, %d hooks, problems %q", len(set.Files), len(set.Hooks), problemStrings(set.Problems))
	}
}

func TestLoadTrust(t *testing.T) {
	f := newFixture(t)
	writeFile(t, ProjectFile(f.ws1), hooksJSON("ws1a", "ws1b"))
	ws2, ws2Pos := unmark(`{"version": 1, "hooks": {"stop": [{"command": "ws2", "timeout": ‸-1}]}}`)
	writeFile(t, ProjectFile(f.ws2), ws2)
	writeFile(t, UserFile(f.home), hooksJSON("user"))

	tests := []struct {
		name         string
		trust        Trust
		wantCommands []string
		wantTrusted  []bool
		wantReason   string
	}{
		{"nil trusts nothing", nil, []string{"user"}, []bool{false, false, true},
			"no trust store is configured, so no project hooks are trusted"},
		{"untrusted", mapTrust{}, []string{"user"}, []bool{false, false, true}, "the file changed since it was trusted"},
		{"trusted", mapTrust{ProjectFile(f.ws1): true}, []string{"ws1a", "ws1b", "user"}, []bool{true, false, true}, "pinned"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := Load(f.loc(), tt.trust)
			if got := commands(set.Hooks); !slices.Equal(got, tt.wantCommands) {
				t.Errorf("hooks = %q, want %q", got, tt.wantCommands)
			}
			var trusted []bool
			for _, file := range set.Files {
				trusted = append(trusted, file.Trusted)
			}
			if !slices.Equal(trusted, tt.wantTrusted) {
				t.Errorf("trusted = %v, want %v", trusted, tt.wantTrusted)
			}
			ws1 := set.Files[0]
			if ws1.TrustReason != tt.wantReason || len(ws1.Hooks) != 2 {
				t.Errorf("ws1: reason %q, %d hooks", ws1.TrustReason, len(ws1.Hooks))
			}
			// ws2's own error is reported whether trusted or not; it
			// has no valid hooks, so no "skipped" warning.
			var want []string
			if !ws1.Trusted {
				want = append(want, ProjectFile(f.ws1)+": warning: 2 project hook(s) skipped: "+tt.wantReason+
					" (fix: trust is pinned to the content of the files, so every edit needs a new review)")
			}
			want = append(want, ProjectFile(f.ws2)+":"+ws2Pos[0]+`: hooks.stop[0].timeout: must be a positive number of seconds, got -1 (fix: use e.g. "timeout": 30)`)
			if got := problemStrings(set.Problems); !slices.Equal(got, want) {
				t.Errorf("problems:\n got  %q\n want %q", got, want)
			}
		})
	}
}

func TestLoadTrustReceivesContent(t *testing.T) {
	f := newFixture(t)
	content := hooksJSON("ws1")
	writeFile(t, ProjectFile(f.ws1), content)
	var gotRoot, gotFile, gotContent string
	trust := trustFunc(func(root, file string, c []byte) (bool, string) {
		gotRoot, gotFile, gotContent = root, file, string(c)
		return true, ""
	})
	Load(Locations{Settings: testSettings, EnterpriseFile: f.ent, WorkspaceRoots: []string{f.ws1}}, trust)
	if gotRoot != f.ws1 || gotFile != ProjectFile(f.ws1) || gotContent != content {
		t.Errorf("Check(%q, %q, %q)", gotRoot, gotFile, gotContent)
	}
}

type trustFunc func(root, file string, content []byte) (bool, string)

func (f trustFunc) Check(root, file string, content []byte) (bool, string) {
	return f(root, file, content)
}

func TestLoadBrokenSourceSkipped(t *testing.T) {
	f := newFixture(t)
	writeFile(t, f.ent, hooksJSON("ent"))
	team, teamPos := unmark(`{"version": 1, "hooks": {"stop": [{"command": "team"}‸,]}}`)
	writeFile(t, f.team("1"), team)
	writeFile(t, UserFile(f.home), `{"version": 1, "hooks": {"stop": [{"command": "user"}]}}`)
	if err := os.MkdirAll(ProjectFile(f.ws1), 0o755); err != nil { // a folder where the file should be
		t.Fatal(err)
	}
	set := Load(f.loc(), mapTrust{})
	if got := commands(set.Hooks); !slices.Equal(got, []string{"ent", "user"}) {
		t.Errorf("hooks = %q", got)
	}
	want := []string{
		f.team("1") + ":" + teamPos[0] + `: hooks.stop: invalid JSON: trailing comma before ] (fix: remove the comma)`,
		ProjectFile(f.ws1) + `: cannot read the hooks file: it is a directory, not a file (fix: remove or rename the folder; hooks.json must be a file)`,
	}
	if got := problemStrings(set.Problems); !slices.Equal(got, want) {
		t.Errorf("problems:\n got  %q\n want %q", got, want)
	}
	if len(set.Files) != 4 {
		t.Errorf("got %d files, want 4 (broken ones included)", len(set.Files))
	}
}

func TestLoadUnreadable(t *testing.T) {
	if os.Geteuid() == 0 || runtime.GOOS == "windows" {
		t.Skip("root reads any file; Windows ignores the permission bits")
	}
	f := newFixture(t)
	writeFile(t, UserFile(f.home), hooksJSON("user"))
	if err := os.Chmod(UserFile(f.home), 0); err != nil {
		t.Fatal(err)
	}
	set := Load(f.loc(), nil)
	want := []string{UserFile(f.home) + ": cannot read the hooks file: permission denied (fix: make the file readable by the user running agenthooks)"}
	if got := problemStrings(set.Problems); !slices.Equal(got, want) {
		t.Errorf("problems:\n got  %q\n want %q", got, want)
	}
}

func TestLoadMultiRootDedup(t *testing.T) {
	f := newFixture(t)
	writeFile(t, ProjectFile(f.ws1), hooksJSON("ws1"))
	writeFile(t, UserFile(f.home), hooksJSON("user"))
	loc := f.loc()
	// ws1 twice (once unclean), and the home folder opened as a workspace.
	loc.WorkspaceRoots = []string{f.ws1, f.ws1 + "/.", f.home, f.ws2}
	set := Load(loc, mapTrust{ProjectFile(f.ws1): true, UserFile(f.home): true})
	if got := commands(set.Hooks); !slices.Equal(got, []string{"ws1", "user"}) {
		t.Errorf("hooks = %q", got)
	}
	if u := set.Hooks[1]; u.Source != User || u.Root != f.ws1 {
		t.Errorf("user hook: %v root %s", u.Source, u.Root)
	}
}

func TestLoadRelativeRoot(t *testing.T) {
	f := newFixture(t)
	writeFile(t, ProjectFile(f.ws1), hooksJSON("ws1"))
	t.Chdir(f.dir)
	set := Load(Locations{Settings: testSettings, EnterpriseFile: f.ent, WorkspaceRoots: []string{"ws1"}}, mapTrust{ProjectFile(f.ws1): true})
	if len(set.Hooks) != 1 || set.Hooks[0].Root != f.ws1 || set.Hooks[0].Dir != f.ws1 {
		t.Fatalf("hooks: %+v, problems %q", set.Hooks, problemStrings(set.Problems))
	}
}

func TestDefaultLocations(t *testing.T) {
	d := t.TempDir()
	ent := filepath.Join(d, "enterprise.json")
	t.Setenv(EnterpriseEnv, ent)
	t.Setenv("HOME", d)
	t.Setenv("USERPROFILE", d) // Windows
	roots := []string{"/a", "/b"}
	loc := DefaultLocations(os.Getenv, roots)
	if loc.EnterpriseFile != ent || loc.Home != d || !slices.Equal(loc.WorkspaceRoots, roots) {
		t.Fatalf("got %+v", loc)
	}
	roots[0] = "/changed"
	if loc.WorkspaceRoots[0] != "/a" {
		t.Error("DefaultLocations must copy the roots")
	}

	writeFile(t, ent, hooksJSON("ent"))
	writeFile(t, UserFile(d), hooksJSON("user"))
	set := Load(DefaultLocations(os.Getenv, nil), nil)
	if got := commands(set.Hooks); !slices.Equal(got, []string{"ent", "user"}) {
		t.Errorf("hooks = %q", got)
	}

	t.Setenv(EnterpriseEnv, "")
	if got := DefaultLocations(os.Getenv, nil).EnterpriseFile; got != DefaultEnterpriseFile() || got == "" {
		t.Errorf("default enterprise file = %q", got)
	}
}

func TestWatched(t *testing.T) {
	f := newFixture(t)
	writeFile(t, UserFile(f.home), hooksJSON("user"))
	writeFile(t, f.team("7"), hooksJSON("team"))
	loc := f.loc()
	loc.WorkspaceRoots = []string{f.ws1}
	set := Load(loc, nil)
	managed := filepath.Join(f.home, ".cursor", "managed")
	want := []string{
		// enterprise: missing file, missing folders up to the first existing one
		f.ent, filepath.Dir(f.ent), filepath.Join(f.dir, "etc"), f.dir,
		// teams: the managed folder, then each team's file and folder
		managed, filepath.Join(f.home, ".cursor"),
		f.team("7"), filepath.Dir(f.team("7")),
		// project: missing file and .cursor folder, then the root
		ProjectFile(f.ws1), filepath.Join(f.ws1, ".cursor"), f.ws1,
		// user: existing file and its folder (already listed)
		UserFile(f.home),
		// Claude Code: local and project settings of the root (missing,
		// with the missing .claude folder), then the user's (missing, up
		// to the home folder that exists)
		ClaudeLocalFile(f.ws1), filepath.Join(f.ws1, ".claude"), ClaudeProjectFile(f.ws1),
		ClaudeUserFile(f.home), filepath.Join(f.home, ".claude"), f.home,
	}
	if got := set.Watched(); !slices.Equal(got, want) {
		t.Errorf("watched:\n got  %q\n want %q", got, want)
	}
}

func TestTeamLess(t *testing.T) {
	ids := []string{"b", "10", "abc", "2", "002", "9", "99999999999999999999", "_"}
	slices.SortFunc(ids, func(a, b string) int {
		switch {
		case teamLess(a, b):
			return -1
		case teamLess(b, a):
			return 1
		}
		return 0
	})
	want := []string{"002", "2", "9", "10", "99999999999999999999", "_", "abc", "b"}
	if !slices.Equal(ids, want) {
		t.Errorf("got %q, want %q", ids, want)
	}
}
