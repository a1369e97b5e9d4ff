// Package examples_test runs the bundled example workspace, whose
// audit.sh and block-git.sh are the scripts of Cursor's hooks
// documentation, unchanged, through the engine.
package examples_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
)

type trustAll struct{}

func (trustAll) Check(string, string, []byte) (bool, string) { return true, "" }

func load(t *testing.T) (*engine.Engine, string) {
	t.Helper()
	for _, tool := range []string{"bash", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed by the seed scripts (.ci/run installs it): %v", tool, err)
		}
	}
	ws, err := filepath.Abs("workspace")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	e, err := engine.Load(engine.Options{
		Locations: config.Locations{EnterpriseFile: filepath.Join(home, "none.json"), Home: home, WorkspaceRoots: []string{ws}},
		Trust:     trustAll{},
	})
	if err != nil {
		t.Fatal(err)
	}
	if p := e.Problems(); len(p) > 0 {
		t.Fatalf("example workspace has problems: %v", p)
	}
	return e, ws
}

func TestSeedBlockGit(t *testing.T) {
	e, _ := load(t)
	cases := []struct {
		command string
		want    event.Permission
		message string
	}{
		{"git push origin main", event.Deny, "Git command blocked. Please use the GitHub CLI (gh) tool instead."},
		{"git", event.Deny, "Git command blocked. Please use the GitHub CLI (gh) tool instead."},
		{"gh pr create", event.Ask, "GitHub CLI command requires permission: gh pr create"},
		{"ls -la", event.Allow, ""},
	}
	for _, c := range cases {
		d, err := e.Run(t.Context(), event.BeforeShellExecution, map[string]any{"command": c.command, "cwd": "."})
		if err != nil {
			t.Fatal(err)
		}
		if d.Permission != c.want || d.UserMessage != c.message {
			t.Errorf("%q: %q %q, want %q %q", c.command, d.Permission, d.UserMessage, c.want, c.message)
		}
		if c.want == event.Deny && !strings.Contains(d.AgentMessage, "'"+c.command+"' has been blocked") {
			t.Errorf("%q: agent message %q", c.command, d.AgentMessage)
		}
	}
}

func TestSeedAudit(t *testing.T) {
	e, _ := load(t)
	const log = "/tmp/agent-audit.log" // where the documented script writes, unchanged
	marker := "audit-marker-" + t.Name()
	if _, err := e.Run(t.Context(), event.AfterFileEdit, map[string]any{"file_path": "/x/" + marker, "edits": []any{}}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("audit.sh wrote nothing: %v", err)
	}
	if !strings.Contains(string(b), marker) || !strings.Contains(string(b), `"hook_event_name":"afterFileEdit"`) {
		t.Fatalf("audit log lacks the payload")
	}
}

func TestExampleWorkspace(t *testing.T) {
	e, ws := load(t)
	d, err := e.Run(t.Context(), event.BeforeReadFile, map[string]any{"file_path": filepath.Join(ws, ".env"), "content": "TOKEN=1"})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Blocked() || !strings.HasPrefix(d.ModelMessage, "File reading was blocked by a security hook: "+filepath.Join(ws, ".env")) {
		t.Fatalf(".env read: %+v", d)
	}
	d, err = e.Run(t.Context(), event.SessionStart, map[string]any{"session_id": "s"})
	if err != nil || d.Env["DEMO_SESSION"] != "on" {
		t.Fatalf("sessionStart: %v %v", d.Env, err)
	}
}
