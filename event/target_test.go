package event

import (
	"encoding/json"
	"testing"
)

func TestMatchTarget(t *testing.T) {
	payload := map[string]json.RawMessage{
		"tool_name":     json.RawMessage(`"MCP:search_issues"`),
		"subagent_type": json.RawMessage(`"explore"`),
		"command":       json.RawMessage(`"curl https://example.com"`),
	}
	want := map[Step]struct {
		value string
		ok    bool
	}{
		PreToolUse:           {"MCP:search_issues", true},
		PostToolUse:          {"MCP:search_issues", true},
		PostToolUseFailure:   {"MCP:search_issues", true},
		SubagentStart:        {"explore", true},
		SubagentStop:         {"explore", true},
		BeforeShellExecution: {"curl https://example.com", true},
		AfterShellExecution:  {"curl https://example.com", true},
		BeforeReadFile:       {"Read", true},
		BeforeTabFileRead:    {"TabRead", true},
		AfterFileEdit:        {"Write", true},
		AfterTabFileEdit:     {"TabWrite", true},
		BeforeSubmitPrompt:   {"UserPromptSubmit", true},
		Stop:                 {"Stop", true},
		AfterAgentResponse:   {"AgentResponse", true},
		AfterAgentThought:    {"AgentThought", true},
		SessionStart:         {"", false},
		SessionEnd:           {"", false},
		BeforeMCPExecution:   {"", false},
		AfterMCPExecution:    {"", false},
		PreCompact:           {"", false},
		Step("unknownStep"):  {"", false},
	}
	for _, step := range Steps {
		if _, ok := want[step]; !ok {
			t.Errorf("no expectation for %s", step)
		}
	}
	for step, w := range want {
		value, ok := MatchTarget(step, payload)
		if value != w.value || ok != w.ok {
			t.Errorf("MatchTarget(%s) = %q, %v; want %q, %v", step, value, ok, w.value, w.ok)
		}
	}
}

func TestMatchTargetOddFields(t *testing.T) {
	cases := []struct {
		name  string
		raw   string // "" leaves the key out
		value string
	}{
		{"missing", "", ""},
		{"null", `null`, ""},
		{"number", `42`, ""},
		{"object", `{"name":"Shell"}`, ""},
		{"escaped", `"Sh\u0065ll"`, "Shell"},
		{"empty", `""`, ""},
	}
	for _, c := range cases {
		payload := map[string]json.RawMessage{}
		if c.raw != "" {
			payload["tool_name"] = json.RawMessage(c.raw)
		}
		value, ok := MatchTarget(PreToolUse, payload)
		if value != c.value || !ok {
			t.Errorf("%s: MatchTarget = %q, %v; want %q, true", c.name, value, ok, c.value)
		}
	}
	if value, ok := MatchTarget(Stop, nil); value != "Stop" || !ok {
		t.Errorf("nil payload: %q, %v", value, ok)
	}
}
