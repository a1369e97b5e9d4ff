//go:build unix

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/internal/fakemodel"
)

// codexConfig is the user's own Codex configuration: the fake model as a
// custom provider on the Responses API. install --trust edits this file,
// and must keep every byte of it.
const codexConfig = `# the user's own settings
model = "fake"
model_provider = "fake"

[model_providers.fake]
name = "Fake"
base_url = "URL/v1"
wire_api = "responses"
env_key = "FAKE_OPENAI_KEY"
`

func codexCase(scope string) pushCase {
	return pushCase{
		agent: "codex", scope: scope, pkg: "@openai/codex", gated: true,
		// Codex 0.169 runs SessionEnd in codex exec too.
		steps: pushSteps,
		model: func(s fakemodel.Script) fakeModel { return fakemodel.NewResponses(s) },
		tool:  "exec_command",
		args: func(cmd, _ string) map[string]any {
			return map[string]any{"cmd": cmd}
		},
		setup: func(t *testing.T, w *workspace, url string) []string {
			home := filepath.Join(w.Home, ".codex")
			mustWrite(t, filepath.Join(home, "config.toml"), strings.Replace(codexConfig, "URL", url, 1), 0o600)
			w.Setenv("CODEX_HOME", home)
			w.Setenv("FAKE_OPENAI_KEY", "e2e-fake-key")
			// Codex finds the project by its git folder.
			if out, err := exec.Command("git", "init", "-q", w.Dir).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			return []string{"exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", prompt}
		},
		removeTrust: func(t *testing.T, w *workspace) {
			cfg := filepath.Join(w.Home, ".codex", "config.toml")
			b, err := os.ReadFile(cfg)
			if err != nil {
				t.Fatal(err)
			}
			// What the user wrote is kept byte for byte, at the start.
			head := string(b[:strings.Index(string(b), "\n[model_providers.fake]")])
			if !strings.HasPrefix(codexConfig, head) {
				t.Errorf("install --trust changed the user's settings:\n%s", b)
			}
			i := strings.Index(string(b), "env_key = \"FAKE_OPENAI_KEY\"\n")
			mustWrite(t, cfg, string(b[:i+len("env_key = \"FAKE_OPENAI_KEY\"\n")]), 0o600)
		},
	}
}

func TestCodexUser(t *testing.T)    { runPushCase(t, codexCase("user")) }
func TestCodexProject(t *testing.T) { runPushCase(t, codexCase("project")) }

func TestCodexStopFollowup(t *testing.T) { runFollowupCase(t, codexCase("project")) }
