package agents

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agenttest"
	"github.com/agenthooks/agenthooks/agent/claude"
	"github.com/agenthooks/agenthooks/agent/codex"
	"github.com/agenthooks/agenthooks/agent/contract"
	"github.com/agenthooks/agenthooks/agent/copilot"
	"github.com/agenthooks/agenthooks/agent/gemini"
	"github.com/agenthooks/agenthooks/agent/opencode"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// deepDepths are nestings past encoding/json's limit of 10000 levels: a
// payload it cannot read would fail the hook open, and the model writes
// the tool input.
var deepDepths = []int{10_001, 100_000}

func deepArray(n int) string {
	return strings.Repeat("[", n) + `"<&>"` + strings.Repeat("]", n)
}

// deepCase is an agent's payload carrying deep in its tool input.
type deepCase struct {
	d       *agent.Dialect
	arg     string
	payload func(deep string) string
	steps   []event.Step
	// quoted: the tool input is a JSON string that holds JSON, so the
	// payload itself is shallow.
	quoted bool
}

func deepCases() map[string]deepCase {
	shell := []event.Step{event.PreToolUse, event.BeforeShellExecution}
	claudePayload := func(deep string) string {
		return `{"session_id":"s1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push","x":` + deep + `}}`
	}
	return map[string]deepCase{
		"claude": {d: claude.Dialect, payload: claudePayload, steps: shell},
		"codex":  {d: codex.Dialect, payload: claudePayload, steps: shell},
		"gemini": {d: gemini.Dialect, steps: shell, payload: func(deep string) string {
			return `{"session_id":"s1","cwd":"/repo","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git push","x":` + deep + `}}`
		}},
		"copilot camelCase, arguments as a string": {d: copilot.Dialect, arg: "preToolUse", steps: shell, quoted: true, payload: func(deep string) string {
			return `{"sessionId":"s1","cwd":"/repo","toolName":"bash","toolArgs":` + strconv.Quote(`{"command":"git push","x":`+deep+`}`) + `}`
		}},
		"copilot PascalCase": {d: copilot.Dialect, steps: shell, payload: func(deep string) string {
			return `{"session_id":"s1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{"command":"git push","x":` + deep + `}}`
		}},
		"opencode": {d: opencode.Dialect, steps: shell, payload: func(deep string) string {
			return `{"hook":"tool.execute.before","directory":"/repo","input":{"tool":"bash","sessionID":"s1","callID":"c1"},"output":{"args":{"command":"git push","x":` + deep + `}}}`
		}},
		"contract": {d: contract.Dialect, steps: shell, payload: func(deep string) string {
			return `{"tool_name":"Shell","tool_input":{"command":"git push","cwd":"/repo","x":` + deep + `}}`
		}},
	}
}

// TestParseDeepToolInput: every agent's payload with a tool input nested
// 10,001 and 100,000 levels deep parses; the command is read, so the
// shell gate runs, and the hooks get the deep value as it was sent.
func TestParseDeepToolInput(t *testing.T) {
	for name, tc := range deepCases() {
		for _, n := range deepDepths {
			deep := deepArray(n)
			payload := []byte(tc.payload(deep))
			if json.Valid(payload) != tc.quoted || json.Valid([]byte(`{"x":`+deep+`}`)) {
				t.Fatalf("%s %d: encoding/json reads the payload; the test does not test depth", name, n)
			}
			r, err := tc.d.Parse(payload, tc.arg)
			if err != nil {
				t.Fatalf("%s %d: Parse: %v", name, n, err)
			}
			if got := agenttest.StepsOf(r.Calls); r.Kind != agent.Tool || len(got) != len(tc.steps) || got[0] != tc.steps[0] || got[1] != tc.steps[1] {
				t.Fatalf("%s %d: kind %v, steps %v", name, n, r.Kind, got)
			}
			for _, c := range r.Calls {
				b, err := c.JSON()
				if err != nil {
					t.Fatalf("%s %d: %s does not encode: %v", name, n, c.Step, err)
				}
				fields, err := jsonscan.Object(b)
				if err != nil {
					t.Fatalf("%s %d: %s encodes to no object: %v", name, n, c.Step, err)
				}
				switch c.Step {
				case event.PreToolUse:
					in, err := jsonscan.Object(fields["tool_input"])
					if err != nil || string(in["command"]) != `"git push"` || string(in["x"]) != deep {
						t.Errorf("%s %d: preToolUse tool_input lost the command or the deep value (%v)", name, n, err)
					}
				case event.BeforeShellExecution:
					if string(fields["command"]) != `"git push"` {
						t.Errorf("%s %d: beforeShellExecution command = %s", name, n, fields["command"])
					}
				}
			}
		}
	}
}

// TestParseDeepToolInputIsUnchangedBelowTheLimit: nested within
// encoding/json's limit, the tool input decodes as it always did.
func TestParseDeepToolInputIsUnchangedBelowTheLimit(t *testing.T) {
	shallow := `[ {"b": 1.0, "a": 1e2} ]`
	r, err := claude.Dialect.Parse([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","x":`+shallow+`}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Calls[0].JSON()
	if err != nil || !strings.Contains(string(b), `"tool_input":{"command":"ls","x":[{"a":100,"b":1}]}`) {
		t.Errorf("tool input encodes as %s, %v", b, err)
	}
}

// TestDeepToolOutputAndEdits: what the after-steps read (a tool's
// response, an edit list) is read past the depth limit too.
func TestDeepToolOutputAndEdits(t *testing.T) {
	for _, n := range deepDepths {
		deep := deepArray(n)
		r, err := claude.Dialect.Parse([]byte(`{"session_id":"s1","cwd":"/repo","hook_event_name":"PostToolUse","tool_name":"MultiEdit",`+
			`"tool_input":{"file_path":"/repo/a","edits":[{"old_string":"a","new_string":"b","x":`+deep+`}]},`+
			`"tool_response":{"ok":true,"x":`+deep+`}}`), "")
		if err != nil {
			t.Fatalf("%d: Parse: %v", n, err)
		}
		edits := agenttest.PayloadOf(t, r.Calls, event.AfterFileEdit)["edits"].([]event.FileEdit)
		if len(edits) != 1 || edits[0].OldString != "a" || edits[0].NewString != "b" {
			t.Errorf("%d: edits = %+v", n, edits)
		}
		out, _ := agenttest.PayloadOf(t, r.Calls, event.PostToolUse)["tool_output"].(string)
		if out != `{"ok":true,"x":`+deep+`}` {
			t.Errorf("%d: tool_output is not the response: %.80q", n, out)
		}

		r, err = gemini.Dialect.Parse([]byte(`{"session_id":"s1","hook_event_name":"AfterTool","tool_name":"read_file","tool_input":{"file_path":"/a"},`+
			`"tool_response":{"error":{"message":"boom","x":`+deep+`}}}`), "")
		if err != nil {
			t.Fatalf("%d: Gemini Parse: %v", n, err)
		}
		if r.Kind != agent.ToolFailure || agenttest.PayloadOf(t, r.Calls, event.PostToolUseFailure)["error_message"] != "boom" {
			t.Errorf("%d: Gemini failure: kind %v", n, r.Kind)
		}

		r, err = claude.Dialect.Parse([]byte(`{"hook_event_name":"PreToolUse","tool_name":"mcp__gh__issue","tool_input":{"title":"t","x":`+deep+`}}`), "")
		if err != nil {
			t.Fatalf("%d: MCP Parse: %v", n, err)
		}
		if in, _ := agenttest.PayloadOf(t, r.Calls, event.BeforeMCPExecution)["tool_input"].(string); in != `{"title":"t","x":`+deep+`}` {
			t.Errorf("%d: beforeMCPExecution tool_input = %.80q", n, in)
		}
	}
}

// TestDeepRewrite: a hook's rewrite with a deep value is merged, the new
// command rechecked, and handed back to the agent as it was.
func TestDeepRewrite(t *testing.T) {
	deep := deepArray(100_000)
	r, err := claude.Dialect.Parse([]byte(`{"session_id":"s1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	v := agent.Merge([]*engine.Decision{{Step: event.PreToolUse, Permission: event.Allow,
		UpdatedInput: json.RawMessage(`{"command":"git status","x":` + deep + `}`)}})
	again := r.Recheck(v)
	if len(again) != 2 || again[1].Step != event.BeforeShellExecution || again[1].Payload["command"] != "git status" {
		t.Fatalf("recheck: %d calls, the last %s", len(again), again[len(again)-1].Step)
	}
	a := claude.Dialect.Answer(r, v, agent.Options{})
	fields, err := jsonscan.Object(a.Stdout)
	if err != nil {
		t.Fatalf("answer %.80q: %v", a.Stdout, err)
	}
	hso, _ := jsonscan.Object(fields["hookSpecificOutput"])
	in, _ := jsonscan.Object(hso["updatedInput"])
	if string(in["command"]) != `"git status"` || string(in["x"]) != deep {
		t.Errorf("updatedInput lost the rewrite: command %s", in["command"])
	}
}

// TestContractHookInputDeep: a Cursor payload with a deep tool input
// still turns into the contract's stdin.
func TestContractHookInputDeep(t *testing.T) {
	deep := deepArray(100_000)
	step, stdin, err := contract.HookInput([]byte(`{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"git push","x":` + deep + `}}`))
	if err != nil || step != event.PreToolUse {
		t.Fatalf("ContractHookInput: %v, %v", step, err)
	}
	fields, _ := jsonscan.Object(stdin)
	in, _ := jsonscan.Object(fields["tool_input"])
	if string(fields["tool_name"]) != `"Shell"` || string(in["command"]) != `"git push"` || string(in["x"]) != deep {
		t.Errorf("contract stdin: tool_name %s, command %s", fields["tool_name"], in["command"])
	}
}
