//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/internal/fakemodel"
)

func copilotCase(scope string) pushCase {
	c := pushCase{
		agent: "copilot", scope: scope, pkg: "@github/copilot",
		// Copilot CLI loads a project's hooks only in a folder it trusts.
		gated: scope == "project",
		steps: pushSteps,
		model: func(s fakemodel.Script) fakeModel { return fakemodel.NewOpenAI(s) },
		tool:  "bash",
		args: func(cmd, desc string) map[string]any {
			return map[string]any{"command": cmd, "description": desc}
		},
		setup: func(t *testing.T, w *workspace, url string) []string {
			w.Setenv("COPILOT_HOME", filepath.Join(w.Home, ".copilot"))
			// Its 235 MB unpack is kept beside the agents, once.
			w.Setenv("COPILOT_PKG_CACHE_HOME", filepath.Join(agentsRoot, "copilot-pkg"))
			w.Setenv("COPILOT_PROVIDER_BASE_URL", url+"/v1")
			w.Setenv("COPILOT_PROVIDER_TYPE", "openai")
			w.Setenv("COPILOT_PROVIDER_WIRE_API", "completions")
			w.Setenv("COPILOT_PROVIDER_API_KEY", "e2e-fake-key")
			w.Setenv("COPILOT_MODEL", "fake")
			w.Setenv("COPILOT_OFFLINE", "true")
			return []string{"-p", prompt, "--allow-all-tools"}
		},
	}
	if c.gated {
		c.removeTrust = func(t *testing.T, w *workspace) {
			if err := os.Remove(filepath.Join(w.Home, ".copilot", "config.json")); err != nil {
				t.Fatal(err)
			}
		}
	}
	return c
}

func TestCopilotUser(t *testing.T)    { runPushCase(t, copilotCase("user")) }
func TestCopilotProject(t *testing.T) { runPushCase(t, copilotCase("project")) }

func TestCopilotStopFollowup(t *testing.T) { runFollowupCase(t, copilotCase("project")) }
