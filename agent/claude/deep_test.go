package claude

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

func deepArray(n int) string {
	return strings.Repeat("[", n) + "1" + strings.Repeat("]", n)
}

// TestInputDeep: a tool input or tool output nested past encoding/json's
// 10000 levels still translates, the deep part passed on as it was.
func TestInputDeep(t *testing.T) {
	for _, n := range []int{10_001, 100_000} {
		input := `{"file_path":"/w/a","old_string":"a","new_string":"b","x":` + deepArray(n) + `}`
		out, err := Input(event.PreToolUse, []byte(`{"conversation_id":"c1","tool_name":"Write","tool_input":`+input+`}`))
		if err != nil {
			t.Fatalf("%d: Input: %v", n, err)
		}
		fields, err := jsonscan.Object(out)
		if err != nil {
			t.Fatalf("%d: output is not an object: %v", n, err)
		}
		if string(fields["tool_name"]) != `"Edit"` || string(fields["session_id"]) != `"c1"` || string(fields["tool_input"]) != input {
			t.Errorf("%d: tool_name %s, session_id %s, tool_input kept: %v", n, fields["tool_name"], fields["session_id"], string(fields["tool_input"]) == input)
		}
		targets, ok := Targets(event.PreToolUse, map[string]json.RawMessage{"tool_name": json.RawMessage(`"Write"`), "tool_input": json.RawMessage(input)})
		if !ok || !slices.Equal(targets, []string{"Edit", "Write", "MultiEdit", "NotebookEdit"}) {
			t.Errorf("%d: Targets = %v", n, targets)
		}

		output := `{"ok":true,"x":` + deepArray(n) + `}`
		out, err = Input(event.PostToolUse, []byte(`{"tool_name":"Shell","tool_input":{},"tool_output":`+strconv.Quote(output)+`}`))
		if err != nil {
			t.Fatalf("%d: Input post: %v", n, err)
		}
		if fields, err = jsonscan.Object(out); err != nil || string(fields["tool_response"]) != output {
			t.Errorf("%d: tool_response is not the output as JSON: %v", n, err)
		}
	}
}
