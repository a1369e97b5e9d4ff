package policy

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

// TestDecideDeepPayload: a tool input nested past encoding/json's 10000
// levels is judged, not refused: the command is read as usual. A rule
// that reads the deep input itself fails, and a failed rule that could
// deny fails the hook, whose failClosed then decides.
func TestDecideDeepPayload(t *testing.T) {
	p := mustCompile(t, `rules:
  - name: no-push
    steps: [preToolUse, beforeShellExecution]
    when: command.startsWith("git push")
    decision: deny
`)
	for _, n := range []int{10_001, 100_000} {
		deep := strings.Repeat("[", n) + "1" + strings.Repeat("]", n)
		for _, c := range []struct {
			step    event.Step
			payload string
		}{
			{event.PreToolUse, `{"tool_name":"Shell","tool_input":{"command":"git push","x":` + deep + `}}`},
			{event.PreToolUse, `{"tool_name":"Shell","tool_input":{"x":` + deep + `,"command":"git push"}}`},
			{event.BeforeShellExecution, `{"command":"git push","x":` + deep + `}`},
		} {
			if json.Valid([]byte(c.payload)) {
				t.Fatal("encoding/json reads the payload; the test does not test depth")
			}
			v, err := p.DecideJSON(context.Background(), c.step, []byte(c.payload))
			if err != nil || v.Decision != event.Deny {
				t.Errorf("%d %s: %q, %v", n, c.step, v.Decision, err)
			}
		}
	}

	reads := mustCompile(t, `rules:
  - name: reads-input
    steps: [preToolUse]
    when: has(input.tool_input.x)
    decision: deny
`)
	deep := strings.Repeat("[", 10_001) + "1" + strings.Repeat("]", 10_001)
	if v, err := reads.DecideJSON(context.Background(), event.PreToolUse, []byte(`{"tool_input":{"x":`+deep+`}}`)); err == nil {
		t.Errorf("a rule that cannot read the input gave %q and no error", v.Decision)
	}
}
