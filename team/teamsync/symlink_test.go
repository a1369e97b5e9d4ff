package teamsync_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/team/teamsync"
)

// outsideDir is a folder next to home that no sync may touch, with a
// file a link can point at.
func outsideDir(t *testing.T, dir string) (string, string) {
	t.Helper()
	out := filepath.Join(dir, "outside")
	target := filepath.Join(out, "target")
	writeFile(t, target, "precious\n")
	return out, target
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create symlinks here: %v", err)
	}
}

// TestLinkedFoldersAreRefused: a managed or team folder that is a link
// pointing elsewhere is never written through.
func TestLinkedFoldersAreRefused(t *testing.T) {
	for _, tc := range []struct{ name, link string }{
		{"team folder", filepath.Join(".cursor", "managed", "team_7")},
		{"managed folder", filepath.Join(".cursor", "managed")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t)
			dir := t.TempDir()
			home := filepath.Join(dir, "home")
			out, _ := outsideDir(t, dir)
			symlink(t, out, filepath.Join(home, tc.link))
			before := snapshot(t, dir)
			_, err := newClient(t, srv.URL, home).Sync(context.Background(), teamsync.AcceptAll)
			if err == nil || !strings.Contains(err.Error(), "is a link") || !strings.Contains(err.Error(), tc.link) {
				t.Fatalf("want a refusal naming the link, got %v", err)
			}
			t.Log(err)
			sameSnapshot(t, "the test folder", before, snapshot(t, dir))
		})
	}
}

// TestLinksInsideTheTeamFolderAreNotFollowed: links planted where the
// sync writes are replaced, never written through, and their targets
// stay as they were.
func TestLinksInsideTheTeamFolderAreNotFollowed(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, home, out, target string)
		fails string // "" when the sync repairs the folder
	}{
		{"link at a script's path", func(t *testing.T, home, _, target string) {
			p := filepath.Join(hooksDir(home), "guard.sh")
			os.Remove(p)
			symlink(t, target, p)
		}, ""},
		{"link at the manifest's path", func(t *testing.T, home, _, target string) {
			p := filepath.Join(hooksDir(home), "hooks.json")
			os.Remove(p)
			symlink(t, target, p)
		}, ""},
		{"hooks folder is a link", func(t *testing.T, home, out, _ string) {
			os.RemoveAll(hooksDir(home))
			symlink(t, out, hooksDir(home))
		}, ""},
		{"link at a staging name", func(t *testing.T, home, out, _ string) {
			symlink(t, out, filepath.Join(filepath.Dir(hooksDir(home)), "hooks.new-0000000000000000"))
		}, ""},
		{"state file is a link", func(t *testing.T, home, _, target string) {
			p := filepath.Join(filepath.Dir(hooksDir(home)), "sync.json")
			os.Remove(p)
			symlink(t, target, p)
		}, "not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t)
			dir := t.TempDir()
			home := filepath.Join(dir, "home")
			out, target := outsideDir(t, dir)
			c := newClient(t, srv.URL, home)
			mustSync(t, c)
			tc.plant(t, home, out, target)
			outBefore := snapshot(t, out)
			before := snapshot(t, dir)

			_, err := c.Sync(context.Background(), teamsync.AcceptAll)
			sameSnapshot(t, "the outside folder", outBefore, snapshot(t, out))
			if tc.fails != "" {
				if err == nil || !strings.Contains(err.Error(), tc.fails) {
					t.Fatalf("want %q, got %v", tc.fails, err)
				}
				sameSnapshot(t, "the test folder", before, snapshot(t, dir))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := readDir(t, hooksDir(home))
			if got["guard.sh"] != goodSet()[0].ScriptContent || !strings.Contains(got["hooks.json"], "./guard.sh") {
				t.Fatalf("not repaired: %v", got)
			}
			if fi, err := os.Lstat(hooksDir(home)); err != nil || !fi.IsDir() {
				t.Fatalf("hooks folder: %v %v", fi, err)
			}
			// Nothing outside the team folder changed.
			team := filepath.Join("home", ".cursor", "managed", "team_7")
			sameSnapshot(t, "the test folder outside the team folder", outsideOf(before, team), outsideOf(snapshot(t, dir), team))
		})
	}
}

// outsideOf is the part of a snapshot outside folder.
func outsideOf(snap map[string]entry, folder string) map[string]entry {
	m := map[string]entry{}
	for p, e := range snap {
		if p != folder && !strings.HasPrefix(p, folder+string(os.PathSeparator)) {
			m[p] = e
		}
	}
	return m
}

// TestFirstSyncCreatesOnlyTheTeamFolder: on a clean machine the sync
// creates ~/.cursor/managed/team_<id> and nothing else.
func TestFirstSyncCreatesOnlyTheTeamFolder(t *testing.T) {
	srv := newServer(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	mustSync(t, newClient(t, srv.URL, home))
	team := filepath.Join(config.TeamDir(home), "team_7")
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if p == team || strings.HasPrefix(p, team+string(os.PathSeparator)) || strings.HasPrefix(team, p) {
			return nil
		}
		t.Errorf("written outside the team folder: %s", p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
