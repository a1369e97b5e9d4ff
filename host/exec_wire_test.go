package host

import (
	"encoding/json"
	"testing"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// The client reads the plan and writes the report in internal/wire's
// types (it links no host); both must say the same JSON as host's.
func TestExecTypesMatchTheWire(t *testing.T) {
	call := &ExecCall{Roots: []string{"/r"}, Cwd: "/r", Command: "ls", Conversation: "c", ToolUseID: "t", Quiet: true, Sandbox: true}
	plan := ExecPlan{Stderr: "e", Run: true, Ask: &ExecAsk{Question: "q", NoTerminal: "n", NotConfirmed: "nc", NoAnswer: "na"},
		Messages: []string{"m"}, Reason: "r", Argv: []string{"ls"}, Dir: "/r", PTY: true, Sandbox: true, Hooks: true, Call: call}
	report := ExecReport{Call: *call, Refused: "no", Result: &ExecResult{Code: 1, Signal: "s", Interrupted: true, StartErr: "x", Output: "o", DurationMS: 5}}
	roundTrip(t, plan, &wire.ExecPlan{})
	roundTrip(t, report, &wire.ExecReport{})
}

// roundTrip checks that v, read into w's type and written again, is the
// same JSON.
func roundTrip(t *testing.T, v, w any) {
	t.Helper()
	a, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(a, w); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("host's %T and the wire's %T differ:\n%s\n%s", v, w, a, b)
	}
}
