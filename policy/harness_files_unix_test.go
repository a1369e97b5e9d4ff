//go:build unix

package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/needs"
)

// rmForms are recursive deletions of a folder outside the workspace
// (the rig's work folder), and, last, one inside it.
var rmForms = []string{
	"-r ../outside/victim",
	"-rf ../outside/victim",
	"--recursive ../outside/victim",
	"-fr -- ../outside/victim",
	"-R ../outside",
	"-rf sub",
}

// catForms are reads of the workspace's .env, and, last, of a plain file.
var catForms = []string{".env", "./.env", "-- .env", "-n .env", "f.txt"}

// secretMarker is the content of the rig's .env.
const secretMarker = "harness-secret-marker"

// TestFileHarness holds rm.yaml and secrets.yaml to what their lines do
// when run for real, where that can be seen: a folder outside the
// workspace deleted without the user asked, a secret printed (or read by
// the recording cat) without a denial. The lines are the grammar's, for
// rm and cat.
func TestFileHarness(t *testing.T) {
	needs.Short(t, "the differential harness (several hundred command lines run for real)")
	r := newRig(t)
	rmPolicy, err := Load(examplePath(t, "rm.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	secrets, err := Load(examplePath(t, "secrets.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var rmRuns, deleted, rmMiss, catRuns, read, catMiss, askedInside int
	for s := range spellings {
		for f := range rmForms {
			line := grammarLine("rm", rmForms, uint8(s), uint8(f))
			for _, shell := range r.shells {
				dir := r.fresh(t)
				victim := filepath.Join(dir, "outside", "victim")
				if err := os.MkdirAll(victim, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(victim, "v.txt"), []byte("v"), 0o644); err != nil {
					t.Fatal(err)
				}
				work := filepath.Join(dir, "work")
				j := judgeInput(t, rmPolicy, map[string]any{"command": line, "cwd": work, "workspace_roots": []string{work}})
				o := r.run(t, dir, shell, line)
				rmRuns++
				if _, err := os.Stat(victim); os.IsNotExist(err) {
					deleted++
					if j.decision != event.Ask && j.decision != event.Deny {
						rmMiss++
						t.Errorf("rm.yaml: MISS with %s: %q deleted a folder outside the workspace, judged %q\n%s", filepath.Base(shell), line, j.decision, o.output)
					}
				}
				if f == len(rmForms)-1 && !strings.HasPrefix(line, "echo") && j.rule == "recursive-rm-outside-workspace" {
					askedInside++
				}
			}
		}
		for f := range catForms {
			line := grammarLine("cat", catForms, uint8(s), uint8(f))
			for _, shell := range r.shells {
				dir := r.fresh(t)
				work := filepath.Join(dir, "work")
				if err := os.WriteFile(filepath.Join(work, ".env"), []byte("KEY="+secretMarker+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				j := judgeInput(t, secrets, map[string]any{"command": line, "cwd": work, "workspace_roots": []string{work}})
				o := r.run(t, dir, shell, line)
				catRuns++
				logged, _ := os.ReadFile(filepath.Join(dir, "log", "cat"))
				if strings.Contains(o.output, secretMarker) || strings.Contains(string(logged), ".env") {
					read++
					if j.decision != event.Deny {
						catMiss++
						t.Errorf("secrets.yaml: MISS with %s: %q read .env, judged %q\n%s", filepath.Base(shell), line, j.decision, o.output)
					}
				}
			}
		}
	}
	t.Logf("rm.yaml: %d runs, %d deleted a folder outside the workspace, %d misses; %d asked about a deletion inside it", rmRuns, deleted, rmMiss, askedInside)
	t.Logf("secrets.yaml: %d runs, %d read .env, %d misses", catRuns, read, catMiss)
}
