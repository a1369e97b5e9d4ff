package teamsync_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamsync/faketeam"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

const (
	testToken = "member-secret-1"
	teamID    = 7
)

// script is a hook that answers with a permission and a message.
func script(perm, msg string) string {
	return fmt.Sprintf("#!/bin/sh\ncat >/dev/null\nprintf '{\"permission\":\"%s\",\"user_message\":\"%s\"}\\n'\n", perm, msg)
}

// goodSet is a team's usual hooks.
func goodSet() []*teamv1.TeamHook {
	guard := faketeam.Hook(1, "beforeShellExecution", "guard.sh", script("deny", "guard v1"))
	guard.Matcher = "^git push"
	guard.TimeoutSeconds = 5
	guard.FailClosed = true
	audit := faketeam.Hook(2, "afterFileEdit", "audit.sh", "#!/bin/sh\ncat >/dev/null\n")
	return []*teamv1.TeamHook{guard, audit}
}

// newServer is a team server serving goodSet.
func newServer(t *testing.T) *faketeam.Server {
	t.Helper()
	srv := faketeam.New(t, teamID, "Acme", testToken)
	srv.SetHooks(goodSet()...)
	return srv
}

// newClient is a client of srv writing into home.
func newClient(t *testing.T, url, home string, mod ...func(*teamsync.Options)) *teamsync.Client {
	t.Helper()
	o := teamsync.Options{Server: url, Token: testToken, Home: home, OS: team.Linux, Timeout: 5 * time.Second}
	for _, m := range mod {
		m(&o)
	}
	c, err := teamsync.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// mustSync syncs and accepts.
func mustSync(t *testing.T, c *teamsync.Client) *teamsync.Result {
	t.Helper()
	res, err := c.Sync(context.Background(), teamsync.AcceptAll)
	if err != nil {
		t.Fatalf("sync: %v", err)
	}
	return res
}

func hooksDir(home string) string { return config.TeamHooksDir(home, fmt.Sprint(teamID)) }

// readDir reads every file of a folder by name; links are recorded as
// "-> target".
func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.Type()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			m[e.Name()] = "-> " + target
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(data)
	}
	return m
}

// entry is one path of a snapshot: its type, mode, content or link
// target, and modification time.
type entry struct {
	mode    fs.FileMode
	content string
	mtime   time.Time
}

// snapshot records every path under root without following links.
func snapshot(t *testing.T, root string) map[string]entry {
	t.Helper()
	m := map[string]entry{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		e := entry{mode: fi.Mode(), mtime: fi.ModTime()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			e.content, _ = os.Readlink(p)
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			e.content = string(data)
		}
		rel, _ := filepath.Rel(root, p)
		m[rel] = e
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sameSnapshot fails the test with every difference between two snapshots.
func sameSnapshot(t *testing.T, what string, before, after map[string]entry) {
	t.Helper()
	var diffs []string
	for p, b := range before {
		a, ok := after[p]
		switch {
		case !ok:
			diffs = append(diffs, "removed "+p)
		case a.mode != b.mode:
			diffs = append(diffs, fmt.Sprintf("mode of %s: %v -> %v", p, b.mode, a.mode))
		case a.content != b.content:
			diffs = append(diffs, "content of "+p)
		case b.mode.IsRegular() && !a.mtime.Equal(b.mtime):
			diffs = append(diffs, "mtime of "+p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			diffs = append(diffs, "added "+p)
		}
	}
	if len(diffs) > 0 {
		t.Fatalf("%s changed:\n  %s", what, strings.Join(diffs, "\n  "))
	}
}

// skipOnWindows skips tests that run POSIX shell scripts.
func skipOnWindows(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hooks are POSIX shell scripts")
	}
}
