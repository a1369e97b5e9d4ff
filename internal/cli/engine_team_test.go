//go:build unix

package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamsync/faketeam"
)

// A running engine keeps an accepted team's hooks current: the set the
// admin changed since the last sync is in place soon after it starts.
func TestEngineKeepsTeamCurrent(t *testing.T) {
	srv := faketeam.New(t, 3, "Platform", "tok")
	srv.SetHooks(faketeam.Hook(1, "beforeShellExecution", "guard.sh", "#!/bin/sh\necho v1\n"))
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("AGENTHOOKS_STATE_DIR", filepath.Join(home, "state"))
	t.Setenv("AGENTHOOKS_CONFIG_DIR", filepath.Join(home, "config"))
	t.Setenv(teamsync.ServerEnv, srv.URL)
	t.Setenv(teamsync.TokenEnv, "tok")
	var out, errb bytes.Buffer
	if code := Execute(&IO{In: strings.NewReader(""), Out: &out, Err: &errb}, []string{"sync", "--accept"}); code != 0 {
		t.Fatalf("sync --accept: %d %s", code, errb.String())
	}
	srv.SetHooks(faketeam.Hook(1, "beforeShellExecution", "guard.sh", "#!/bin/sh\necho v2\n"))

	sockDir, err := os.MkdirTemp("", "ah-eng-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(sockDir)
	os.Chmod(sockDir, 0o700)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	o := &engineOptions{io: &IO{Out: &out, Err: &errb}, socket: filepath.Join(sockDir, "e.sock"), idle: time.Minute}
	go func() { done <- o.serve(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	script := filepath.Join(config.TeamHooksDir(home, "3"), "guard.sh")
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(script); err == nil && strings.Contains(string(b), "v2") {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, _ := os.ReadFile(script)
	t.Fatalf("the engine did not sync the new set: guard.sh is %q; engine said %s", b, errb.String())
}
