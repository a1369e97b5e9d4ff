//go:build unix

package e2e

import (
	"os"
	"testing"

	"github.com/agenthooks/agenthooks/internal/fakemodel"
)

func claudeCase(scope string) pushCase {
	return pushCase{
		agent: "claude", scope: scope, pkg: "@anthropic-ai/claude-code",
		steps: pushSteps,
		model: func(s fakemodel.Script) fakeModel { return fakemodel.NewAnthropic(s) },
		tool:  "Bash",
		args: func(cmd, desc string) map[string]any {
			return map[string]any{"command": cmd, "description": desc}
		},
		setup: func(t *testing.T, w *workspace, url string) []string {
			w.Setenv("ANTHROPIC_BASE_URL", url)
			w.Setenv("ANTHROPIC_API_KEY", "e2e-fake-key")
			w.Setenv("DISABLE_TELEMETRY", "1")
			w.Setenv("DISABLE_AUTOUPDATER", "1")
			w.Setenv("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
			if os.Geteuid() == 0 {
				// Claude Code refuses to skip permissions as root outside
				// a sandbox it is told about.
				w.Setenv("IS_SANDBOX", "1")
			}
			return []string{"-p", prompt, "--dangerously-skip-permissions"}
		},
	}
}

func TestClaudeUser(t *testing.T)    { runPushCase(t, claudeCase("user")) }
func TestClaudeProject(t *testing.T) { runPushCase(t, claudeCase("project")) }

func TestClaudeStopFollowup(t *testing.T) { runFollowupCase(t, claudeCase("project")) }
