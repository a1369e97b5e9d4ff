package teamsync_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/teamsync"
)

// TestTeamSandbox: the team's sandbox.json is installed beside its hooks
// and removed with it; one the sandbox's own parser refuses makes the
// whole set refused (the last good one stays), in the parser's words; no
// script may take its name.
func TestTeamSandbox(t *testing.T) {
	srv := newServer(t)
	home := t.TempDir()
	c := newClient(t, srv.URL, home)
	path := filepath.Join(hooksDir(home), "sandbox.json")
	const good = `{"type":"workspace_readwrite","networkPolicy":{"default":"deny","allow":["github.com"]}}`

	srv.SetSandbox(good)
	if res := mustSync(t, c); !res.Changed {
		t.Fatalf("sync with a sandbox: %+v", res)
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != good {
		t.Fatalf("installed sandbox.json %q, %v", data, err)
	}

	srv.SetSandbox(`{"networkPolicy":{"default":"sometimes"}}`)
	_, err := c.Sync(context.Background(), teamsync.AcceptAll)
	var refused *teamsync.RefusedError
	if !errors.As(err, &refused) || !strings.Contains(strings.Join(refused.Problems, "\n"), "the team's sandbox.json: /networkPolicy/default") {
		t.Fatalf("a bad sandbox.json: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != good {
		t.Fatalf("the last good sandbox.json was not kept: %q", data)
	}

	srv.SetSandbox("")
	mustSync(t, c)
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a removed sandbox.json stays: %v", err)
	}
	if err := team.CheckScriptName("Sandbox.JSON", false); err == nil {
		t.Fatal("a script may take the sandbox's name")
	}
}
