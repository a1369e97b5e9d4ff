//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorGeminiOpenCode: the doctor with the real Gemini CLI and
// OpenCode on PATH, before install, after it, and (Gemini CLI) after its
// trust in the folder was taken away. Their sessions are in agents_test.go.
func TestDoctorGeminiOpenCode(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	for _, a := range []string{"gemini", "opencode"} {
		if err := os.Symlink(agent(t, a), filepath.Join(w.Shims, a)); err != nil {
			t.Fatal(err)
		}
	}
	rep := w.doctor()
	if rep.OK || !rep.failed("gemini", "wired") || !rep.failed("opencode", "wired") || !rep.passed("gemini", "found") {
		t.Errorf("before install:\n%s", rep.text)
	}
	w.agenthooks("install", "--agent", "gemini", "--scope", "project", "--trust")
	w.agenthooks("install", "--agent", "opencode", "--scope", "project")
	rep = w.doctor()
	if !rep.OK || !rep.passed("gemini", "gate") || !rep.passed("opencode", "binary") {
		t.Errorf("after install:\n%s", rep.text)
	}
	if err := os.Remove(filepath.Join(w.Home, ".gemini", "trustedFolders.json")); err != nil {
		t.Fatal(err)
	}
	rep = w.doctor()
	if rep.OK || !rep.failed("gemini", "gate") || len(rep.problems("opencode")) != 0 {
		t.Errorf("after Gemini CLI's trust was removed:\n%s", rep.text)
	}
}

// The same at user scope: a user-level install opens no folder's trust
// (and --trust without the folder is refused), so the doctor, run in the
// workspace, finds Gemini CLI's gate shut there and names the command
// that opens it, which does.
func TestDoctorGeminiOpenCodeUser(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	for _, a := range []string{"gemini", "opencode"} {
		if err := os.Symlink(agent(t, a), filepath.Join(w.Shims, a)); err != nil {
			t.Fatal(err)
		}
	}
	w.agenthooks("install", "--agent", "gemini", "--scope", "user", "--trust=false")
	w.agenthooks("install", "--agent", "opencode", "--scope", "user")
	rep := w.doctor()
	fix := "agenthooks install --agent gemini --scope user --workspace " + w.Dir + " --trust"
	if rep.OK || !rep.failed("gemini", "gate") || !strings.Contains(rep.text, fix) || !rep.passed("opencode", "binary") {
		t.Errorf("after a user-level install, with no folder named: want Gemini CLI's gate shut and the fix %q:\n%s", fix, rep.text)
	}
	w.agenthooks("install", "--agent", "gemini", "--scope", "user", "--trust", "--workspace", w.Dir)
	rep = w.doctor()
	if !rep.OK || !rep.passed("gemini", "gate") {
		t.Errorf("after install --trust --workspace:\n%s", rep.text)
	}
}
