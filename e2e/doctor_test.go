//go:build unix

package e2e

import (
	"os"
	"path/filepath"
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
