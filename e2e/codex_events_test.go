//go:build unix

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/agenthooks/agenthooks/agent/agents"
	codexagent "github.com/agenthooks/agenthooks/agent/codex"
)

// TestCodexEvents checks install's Codex events against the pinned Codex
// itself (its app server's protocol schema lists the hook events): every
// event with a Cursor counterpart is wired, every wired event is one
// Codex has, and the rest are events agenthooks has no step for.
func TestCodexEvents(t *testing.T) {
	t.Parallel()
	codex := agent(t, "codex")
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "app-server", "generate-json-schema", "--out", dir)
	cmd.Env = append(os.Environ(), "CODEX_HOME="+filepath.Join(dir, "home"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("codex app-server generate-json-schema: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "v2", "HooksListResponse.json"))
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Definitions struct {
			HookEventName struct {
				Enum []string `json:"enum"`
			} `json:"HookEventName"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(b, &schema); err != nil || len(schema.Definitions.HookEventName.Enum) == 0 {
		t.Fatalf("no hook events in the schema (%v)", err)
	}
	wired := agents.Install().Events("codex")
	var codexHas []string
	for _, e := range schema.Definitions.HookEventName.Enum {
		r := []rune(e)
		r[0] = unicode.ToUpper(r[0])
		ev := string(r)
		codexHas = append(codexHas, ev)
		req, err := codexagent.Dialect.Parse([]byte(`{"hook_event_name":"`+ev+`","session_id":"s","cwd":"/","prompt":"p",`+
			`"tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"","source":"startup","trigger":"auto",`+
			`"reason":"exit","stop_hook_active":false,"transcript_path":null,"model":"m","turn_id":"t"}`), "")
		if err != nil {
			t.Errorf("%s: %v", ev, err)
			continue
		}
		served := len(req.Calls) > 0
		if served && !slices.Contains(wired, ev) {
			t.Errorf("Codex has %s, which agenthooks serves, but install does not wire it", ev)
		}
		if !served && slices.Contains(wired, ev) {
			t.Errorf("install wires %s, which agenthooks does not serve", ev)
		}
	}
	for _, ev := range wired {
		if !slices.Contains(codexHas, ev) {
			t.Errorf("install wires %s, which Codex %s does not have (%s)", ev, pinnedVersion("@openai/codex"), strings.Join(codexHas, ", "))
		}
	}
	t.Logf("Codex %s events: %s; wired: %s", pinnedVersion("@openai/codex"), strings.Join(codexHas, ", "), strings.Join(wired, ", "))
}
