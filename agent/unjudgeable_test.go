package agent_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agents"
)

// A file tool's input naming two files is not judged: it is a gating
// payload agenthooks cannot read, whichever agent sent it and however
// the keys are spelt. The same file under two keys is fine.
func TestUnjudgeable(t *testing.T) {
	cases := []struct {
		agent, payload string
		conflict       bool
	}{
		{"copilot", `{"toolName":"view","toolArgs":"{\"path\":\"/r/.env\",\"file_path\":\"/r/ok\"}","cwd":"/r"}`, true},
		{"copilot", `{"toolName":"view","toolArgs":"{\"path\":\"/r/.env\"}","cwd":"/r"}`, false},
		{"opencode", `{"hook":"tool.execute.before","input":{"tool":"read"},"output":{"args":{"filePath":"/r/.env","file_path":"/r/ok"}}}`, true},
		{"opencode", `{"hook":"tool.execute.before","input":{"tool":"read"},"output":{"args":{"filePath":"/r/.env","file_path":"/r/.env"}}}`, false},
		{"gemini", `{"hook_event_name":"BeforeTool","session_id":"s","cwd":"/r","tool_name":"read_file","tool_input":{"absolute_path":"/r/.env","file_path":"/r/ok"}}`, true},
		{"claude", `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/r","tool_name":"Write","tool_input":{"file_path":"/r/a","path":"/r/b","content":"x"}}`, true},
		{"claude", `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/r","tool_name":"Bash","tool_input":{"command":"ls","path":"/r/b","file_path":"/r/c"}}`, false},
		{"claude", `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/r","tool_name":"Bash","tool_input":{"command":["git push"]}}`, true},
		{"codex", `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/r","tool_name":"Bash","tool_input":{"command":{"x":1}}}`, true},
	}
	for _, c := range cases {
		a, _ := agents.Lookup(c.agent)
		ev := ""
		if c.agent == "copilot" {
			ev = "preToolUse"
		}
		_, err := a.Dialect.Parse([]byte(c.payload), ev)
		var pe *agent.ParseError
		got := errors.As(err, &pe) && (strings.Contains(err.Error(), "names more than one file") || strings.Contains(err.Error(), "is not a string"))
		if got != c.conflict {
			t.Errorf("%s %s: error %v, want a conflict %v", c.agent, c.payload, err, c.conflict)
			continue
		}
		if got && !pe.Gating {
			t.Errorf("%s: the conflict is not gating: %v", c.agent, err)
		}
	}
}
