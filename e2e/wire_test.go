//go:build unix

package e2e

import (
	"encoding/json"
	"testing"
)

// wireAgent makes the agent run agenthooks for its hooks, in the project:
// `agenthooks install --agent AGENT --scope project`, run there.
func wireAgent(t *testing.T, w *workspace, agent string) {
	t.Helper()
	out := w.agenthooks("install", "--agent", agent, "--scope", "project")
	t.Logf("agenthooks install --agent %s --scope project:\n%s", agent, out)
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, path, string(b)+"\n", 0o644)
}
