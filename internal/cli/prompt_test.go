package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/llm/llmtest"
)

// TestPromptHookEndToEnd: the built binary judges a command with a prompt
// hook against a model server speaking the real wire protocol.
func TestPromptHookEndToEnd(t *testing.T) {
	bin := binary(t)
	for _, provider := range []string{llmtest.OpenAI, llmtest.Anthropic} {
		t.Run(provider, func(t *testing.T) {
			srv := llmtest.New(t, provider, llmtest.Reply{Verdict: `{"ok":false,"reason":"pushing to main is not allowed"}`})
			srv.Key = "sk-test-key-123456"
			dir := t.TempDir()
			home := filepath.Join(dir, "home")
			if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
				t.Fatal(err)
			}
			cfg := `{"version":1,"hooks":{"beforeShellExecution":[{"type":"prompt","prompt":"Is this command safe? $ARGUMENTS","timeout":10}]}}`
			if err := os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "run", "beforeShellExecution")
			cmd.Env = []string{
				"PATH=" + os.Getenv("PATH"), "HOME=" + home,
				"AGENTHOOKS_CONFIG_DIR=" + filepath.Join(dir, "config"),
				"AGENTHOOKS_STATE_DIR=" + filepath.Join(dir, "state"),
				"AGENTHOOKS_ENTERPRISE_CONFIG=" + filepath.Join(dir, "none.json"),
				"AGENTHOOKS_LLM_PROVIDER=" + provider,
				"AGENTHOOKS_LLM_BASE_URL=" + srv.URL,
				"AGENTHOOKS_LLM_API_KEY_ENV=TEST_LLM_KEY",
				"TEST_LLM_KEY=" + srv.Key,
			}
			cmd.Stdin = strings.NewReader(`{"command":"git push origin main","cwd":"/"}`)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v: %s", err, stderr.String())
			}
			if !bytes.Contains(out, []byte(`"permission":"deny"`)) || !bytes.Contains(out, []byte("pushing to main is not allowed")) {
				t.Fatalf("response %s", out)
			}
			if bytes.Contains(out, []byte(srv.Key)) || strings.Contains(stderr.String(), srv.Key) {
				t.Fatal("the API key leaked into the output")
			}
		})
	}
}
