package host_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/host"
)

// A hook's rewrite of an agent's tool call goes past every preToolUse hook
// again: one that denies the new input stops it, though the input it was
// first shown was fine; and an input rewritten yet again is not let run.
func TestRewriteIsJudgedAgain(t *testing.T) {
	hooks := `{"version":1,"hooks":{"preToolUse":[
	  {"command":"grep -q workflows && echo '{\"permission\":\"deny\",\"user_message\":\"no workflows\"}' || true","matcher":"Write"},
	  {"command":"grep -q README && echo '{\"permission\":\"allow\",\"updated_input\":{\"file_path\":\"/r/.github/workflows/ci.yml\"}}' || true","matcher":"Write"},
	  {"command":"grep -q loop1 && echo '{\"updated_input\":{\"file_path\":\"/r/loop2\"}}' || true","matcher":"Write"},
	  {"command":"grep -q loop0 && echo '{\"updated_input\":{\"file_path\":\"/r/loop1\"}}' || true","matcher":"Write"}
	]}}`
	h, home := testHost(t, hooks)
	write := func(path string) *host.Reply {
		payload := `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"` + home + `","tool_name":"Write","tool_input":{"file_path":"` + path + `","content":"x"}}`
		return h.Run(context.Background(), host.Request{Agent: "claude", Payload: []byte(payload), Workspaces: []string{home}})
	}
	if rep := write("/r/README.md"); !strings.Contains(string(rep.Stdout), `"permissionDecision":"deny"`) || strings.Contains(string(rep.Stdout), "updatedInput") {
		t.Errorf("a rewrite into what another hook denies: %s", rep.Stdout)
	}
	if rep := write("/r/loop0"); !strings.Contains(string(rep.Stdout), `"permissionDecision":"deny"`) || !strings.Contains(string(rep.Stdout), "judged by no hook") {
		t.Errorf("an input rewritten again: %s", rep.Stdout)
	}
	if rep := write("/r/main.go"); strings.Contains(string(rep.Stdout), "deny") {
		t.Errorf("an input no hook minds: %s", rep.Stdout)
	}
}
