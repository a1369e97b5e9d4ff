package teamsync_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/state"
	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/teamsync"
)

// TestAuditUpload: the local log's team decisions leave the machine only
// while the team's audit is on, only those made after the machine learned
// of it, only the team's own (not another source's, not an allow), each
// once; a failed upload is retried at the next sync; every request
// reports the machine.
func TestAuditUpload(t *testing.T) {
	ctx := context.Background()
	srv := newServer(t)
	home := t.TempDir()
	log, err := state.Open(ctx, state.Options{Dir: filepath.Join(t.TempDir(), "state")})
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	c := newClient(t, srv.URL, home, func(o *teamsync.Options) {
		o.Machine = teamsync.Machine{ID: "0123456789abcdef0123456789abcdef", Hostname: "ci", Version: "v0", Agents: []string{"claude"}}
		o.Log = log
	})
	decide := func(source, file, outcome string) {
		t.Helper()
		rec := audit.Record{ID: audit.NewID(time.Now()), Time: time.Now(), Step: "beforeShellExecution", Command: "./guard.sh",
			Type: "command", Source: source, File: file, Outcome: outcome, Decision: outcome, Agent: "claude",
			Payload: []byte(`{"command":"git push origin main"}`), Response: []byte(`{"permission":"deny","user_message":"no pushes"}`)}
		if err := log.Write(ctx, []audit.Record{rec}); err != nil {
			t.Fatal(err)
		}
	}
	teamFile := filepath.Join(hooksDir(home), "hooks.json")

	mustSync(t, c)
	decide("team", teamFile, "deny")
	if res := mustSync(t, c); res.Uploaded != 0 || len(srv.Uploads()) != 0 {
		t.Fatalf("audit off: %d sent, %d uploads", res.Uploaded, len(srv.Uploads()))
	}

	srv.SetAudit(true)
	if res := mustSync(t, c); res.Uploaded != 0 || len(srv.Uploads()) != 0 {
		t.Fatalf("decisions from before the audit was on were sent: %d", res.Uploaded)
	}
	decide("team", teamFile, "deny")
	decide("team", teamFile, "allow")
	decide("project", "/work/.cursor/hooks.json", "deny")
	decide("team", filepath.Join(home, ".cursor", "managed", "team_99", "hooks", "hooks.json"), "deny")
	decide("team", teamFile, "fail-closed")

	srv.FailUploads(true)
	res := mustSync(t, c)
	if res.Uploaded != 0 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "2 decision(s) not sent, kept for the next sync") {
		t.Fatalf("a failed upload: %+v", res)
	}
	srv.FailUploads(false)
	if res := mustSync(t, c); res.Uploaded != 2 {
		t.Fatalf("the retry sent %d decisions, want the team's deny and fail-closed", res.Uploaded)
	}
	if res := mustSync(t, c); res.Uploaded != 0 {
		t.Fatalf("decisions sent twice: %d", res.Uploaded)
	}
	ups := srv.Uploads()
	last := ups[len(ups)-1]
	if len(ups) != 2 || len(last.Decisions) != 2 || last.Machine.GetId() != "0123456789abcdef0123456789abcdef" {
		t.Fatalf("uploads %v", ups)
	}
	d := last.Decisions[0]
	if d.Outcome != "deny" || d.ScriptName != "guard.sh" || d.Agent != "claude" || d.What != "git push origin main" || d.Message != "no pushes" {
		t.Errorf("decision sent %+v", d)
	}
	for _, r := range srv.Requests() {
		if r.Msg.GetMachine().GetHostname() != "ci" || r.Msg.GetMachine().GetOs() != team.Linux {
			t.Fatalf("a request without the machine's report: %+v", r.Msg)
		}
	}

	// Off again: the cursor is dropped, and turning it back on starts anew.
	srv.SetAudit(false)
	mustSync(t, c)
	decide("team", teamFile, "deny")
	srv.SetAudit(true)
	if res := mustSync(t, c); res.Uploaded != 0 {
		t.Fatalf("a decision made while the audit was off was sent: %d", res.Uploaded)
	}
}
