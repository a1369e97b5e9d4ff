//go:build unix

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/agenttest"
)

// TestGeminiDegraded is TestGemini on a machine where agenthooks' own
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
	model := agenttest.NewGemini(agenttest.Script{Steps: []agenttest.Step{
		agenttest.Call("run_shell_command", map[string]any{"command": "git push origin main", "description": "Push main."}),
		agenttest.Call("run_shell_command", map[string]any{"command": allowedCommand, "description": "Write allowed.txt."}),
		agenttest.Say("The push was blocked by policy; allowed.txt is written."),
	}})
	defer model.Close()
	gemini := geminiAgent(t, w, model.URL())

	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	defer cancel()
	start := time.Now()
	out, err := w.run(ctx, gemini, "--prompt", prompt, "--approval-mode", "yolo", "--model", "gemini-2.5-flash")
	t.Logf("gemini ran %s", time.Since(start).Round(time.Millisecond))
	check(t, w, out, err, model, []string{
		"preToolUse", "beforeShellExecution git push origin main",
		"preToolUse", "beforeShellExecution " + allowedCommand,
	})
}
