//go:build unix

package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// wireAgent makes the agent run agenthooks for its hooks at scope (user
// or project): `agenthooks install --agent AGENT --scope SCOPE [FLAG]...`,
// run in the project.
func wireAgent(t *testing.T, w *workspace, agent, scope string, flags ...string) {
	t.Helper()
	args := append([]string{"install", "--agent", agent, "--scope", scope}, flags...)
	out := w.agenthooks(args...)
	t.Logf("agenthooks %s:\n%s", strings.Join(args, " "), out)
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, path, string(b)+"\n", 0o644)
}
