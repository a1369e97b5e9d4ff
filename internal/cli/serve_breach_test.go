package cli

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/team/server"
	"github.com/agenthooks/agenthooks/team/store"
)

// TestServeReportsBreaches: a stored hook that breaks a rule the server
// now applies (here a timeout members refuse, written before the rule)
// is named in the log when `agenthooks serve` starts, with its team, its
// field and what is wrong; the server still starts and keeps the row.
func TestServeReportsBreaches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "team.db")
	ctx := context.Background()
	st, err := store.Open(ctx, "sqlite:"+path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	team, err := st.CreateTeam(ctx, "platform")
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := st.CreateHook(ctx, "alice", team.ID, store.Hook{Step: "stop", ScriptName: "audit.sh", Active: true, ScriptContent: "#!/bin/sh\n"})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE hooks SET timeout_seconds = 1e10 WHERE id = ?`, h.ID); err != nil {
		t.Fatal(err)
	}
	db.Close()

	var stderr bytes.Buffer
	ready := make(chan struct{})
	o := &serveOptions{
		io:             &IO{In: strings.NewReader(""), Out: io.Discard, Err: &stderr},
		listen:         "127.0.0.1:0",
		database:       "sqlite:" + path,
		maxScriptBytes: store.DefaultMaxScriptBytes,
		uploadRate:     server.DefaultUploadRate, uploadDaily: store.DefaultDailyDecisionsPerToken,
		noDashboard: true,
		ready:       func(string) { close(ready) },
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- o.run(sctx) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("serve: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not start within 30 s")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	log := stderr.String()
	for _, want := range []string{"stored hook breaks a rule", "team=platform", "script=audit.sh", "field=timeout_seconds", "1e+10"} {
		if !strings.Contains(log, want) {
			t.Errorf("serve's log lacks %q:\n%s", want, log)
		}
	}
}
