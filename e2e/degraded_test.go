//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGeminiDegraded is TestGeminiProject on a machine where agenthooks' own
// parts are broken: the state directory is a file, the model settings and
// a log setting are bad. Real Gemini CLI must still have its push blocked
// and its allowed command run: agenthooks degrades, it does not fail open.
func TestGeminiDegraded(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	state := filepath.Join(t.TempDir(), "state-is-a-file")
	if err := os.WriteFile(state, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Later entries win: os/exec keeps the last value of a name.
	w.env = append(w.env, "AGENTHOOKS_STATE_DIR="+state, "AGENTHOOKS_LLM_PROVIDER=bogus", "AGENTHOOKS_LOG_RETENTION=forever")
	// Without its store, agenthooks keeps no session between the hook
	// processes: the sessionStart env is lost (the degradation).
	w.noSessionState = true
	out, model, err := runGeminiPush(t, w, "project")
	defer model.Close()
	check(t, w, out, err, model, []string{
		"preToolUse", "beforeShellExecution git push origin main",
		"preToolUse", "beforeShellExecution " + allowedCommand,
	})
}
