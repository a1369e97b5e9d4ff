package export_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	claudeagent "github.com/agenthooks/agenthooks/agent/claude"
	codexagent "github.com/agenthooks/agenthooks/agent/codex"
	copilotagent "github.com/agenthooks/agenthooks/agent/copilot"
	geminiagent "github.com/agenthooks/agenthooks/agent/gemini"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/export"
	"github.com/agenthooks/agenthooks/match"
)

// The round trip: for every exported hook and every tool an agent may
// call, the agent runs the hook exactly when Cursor would have run it for
// the same action, as agenthooks' dialects (the `run --from` side, which
// maps agents' events to Cursor steps) understand the action. So the two
// directions of the repository agree on events, tools and matchers.

// agentSide is how one agent matches, which tools it has, and what it
// sends its hooks.
type agentSide struct {
	dialect *agent.Dialect
	tools   []string
	matches func(t *testing.T, matcher, tool string) bool
	payload func(ev, tool string, step event.Step) []byte
}

var sides = map[string]agentSide{
	"claude": {
		dialect: claudeagent.Dialect,
		tools: []string{"Bash", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Grep", "Glob", "Task", "Agent",
			"WebFetch", "WebSearch", "TodoWrite", "LS", "mcp__srv__search", "mcp__srv__other"},
		matches: func(t *testing.T, m, tool string) bool {
			c, err := match.CompileNameList(m)
			if err != nil {
				t.Fatalf("Claude Code cannot read matcher %q: %v", m, err)
			}
			return c == nil || c.MatchString(tool)
		},
		payload: snakePayload,
	},
	"codex": {
		dialect: codexagent.Dialect,
		tools:   []string{"Bash", "apply_patch", "mcp__srv__search", "mcp__srv__other", "SomeTool"},
		matches: codexMatches,
		payload: snakePayload,
	},
	"gemini": {
		dialect: geminiagent.Dialect,
		tools: []string{"run_shell_command", "read_file", "read_many_files", "write_file", "replace", "edit", "glob", "grep",
			"search_file_content", "list_directory", "web_fetch", "google_web_search", "save_memory", "mcp_srv_search", "mcp_srv_other"},
		matches: func(t *testing.T, m, tool string) bool {
			if m == "" || m == "*" {
				return true
			}
			c, err := match.Compile(m) // JavaScript, unanchored
			if err != nil {
				t.Fatalf("Gemini CLI cannot read matcher %q: %v", m, err)
			}
			return c.MatchString(tool)
		},
		payload: snakePayload,
	},
	"copilot": {
		dialect: copilotagent.Dialect,
		tools:   []string{"bash", "powershell", "view", "create", "edit", "glob", "grep", "task", "web_fetch", "ask_user"},
		matches: func(t *testing.T, m, tool string) bool {
			if m == "" {
				return true
			}
			c, err := match.Compile("^(?:" + m + ")$") // Copilot anchors matchers
			if err != nil {
				t.Fatalf("GitHub Copilot cannot read matcher %q: %v", m, err)
			}
			return c.MatchString(tool)
		},
		payload: copilotPayload,
	},
}

// codexMatches is Codex's rule: nothing, "" or "*" is every tool; only
// [A-Za-z0-9_|] is a list of exact names; else a regular expression,
// unanchored (Rust's syntax, which RE2 shares for these patterns).
func codexMatches(t *testing.T, m, tool string) bool {
	switch {
	case m == "" || m == "*":
		return true
	case regexp.MustCompile(`^[A-Za-z0-9_|]+$`).MatchString(m):
		return slices.Contains(strings.Split(m, "|"), tool)
	}
	re, err := regexp.Compile(m)
	if err != nil {
		t.Fatalf("Codex cannot read matcher %q: %v", m, err)
	}
	return re.MatchString(tool)
}

const patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n"

// toolInput is an input every role of tool can read.
func toolInput(tool string) map[string]any {
	in := map[string]any{"command": "ls -la", "file_path": "/w/app/a.txt", "content": "x", "old_string": "a",
		"new_string": "b", "subagent_type": "explore", "prompt": "look", "pattern": "x"}
	if tool == "apply_patch" {
		in["command"] = patch
	}
	return in
}

// snakePayload is a Claude-shaped payload (Claude Code, Codex, Gemini CLI).
func snakePayload(ev, tool string, step event.Step) []byte {
	p := map[string]any{"hook_event_name": ev, "session_id": "s1", "cwd": "/w/app", "transcript_path": "/t.jsonl"}
	if tool != "" {
		p["tool_name"], p["tool_input"], p["tool_use_id"] = tool, toolInput(tool), "u1"
		p["tool_response"] = map[string]any{"stdout": "ok", "llmContent": "ok"}
		if step == event.PostToolUseFailure {
			p["error"] = "boom"
			p["tool_response"] = map[string]any{"error": map[string]any{"message": "boom"}}
		}
		if server, name, ok := strings.Cut(strings.TrimPrefix(tool, "mcp_"), "_"); ok && strings.HasPrefix(tool, "mcp_") && !strings.HasPrefix(tool, "mcp__") {
			p["mcp_context"] = map[string]any{"server_name": server, "tool_name": name}
		}
	}
	p["prompt"], p["prompt_response"], p["source"], p["reason"], p["trigger"] = "hi", "done", "startup", "exit", "auto"
	p["stop_hook_active"], p["agent_type"], p["last_assistant_message"] = false, "explore", "done"
	b, _ := json.Marshal(p)
	return b
}

// copilotPayload is Copilot's camelCase payload (the event is named on
// the command line).
func copilotPayload(_, tool string, step event.Step) []byte {
	p := map[string]any{"sessionId": "s1", "cwd": "/w/app", "timestamp": 1}
	if tool != "" {
		args, _ := json.Marshal(toolInput(tool))
		p["toolName"], p["toolArgs"] = tool, string(args)
		if step == event.PostToolUse || step == event.AfterShellExecution || step == event.AfterFileEdit {
			p["toolResult"] = map[string]any{"textResultForLlm": "ok"}
		}
		if step == event.PostToolUseFailure {
			p["error"] = map[string]any{"message": "boom"}
		}
	}
	p["prompt"], p["source"], p["reason"], p["trigger"], p["stopReason"], p["agentName"] = "hi", "new", "exit", "auto", "end", "explore"
	b, _ := json.Marshal(p)
	return b
}

// roundTripHooks: one command hook per step, and matchers of every kind.
func roundTripHooks() string {
	var items []string
	n := 0
	add := func(step event.Step, matcher string) {
		h := `{"command":"./h` + strconv.Itoa(n) + `.sh"`
		if matcher != "" {
			h += `,"matcher":` + strconv.Quote(matcher)
		}
		items = append(items, `"`+string(step)+`":[`+h+`}]`)
		n++
	}
	for _, s := range event.Steps {
		add(s, "")
	}
	for _, m := range []string{"Shell", "Write", "Read|Grep", "Glob", "Task", "WebFetch|WebSearch", "MCP:search", "MCP:.*",
		"Shell|MCP:", "^(?!Shell)", "Delete|Shell", "TodoWrite", "^(Shell|Write)$"} {
		add(event.PreToolUse, m)
	}
	add(event.PostToolUse, "Write")
	add(event.PostToolUseFailure, "Shell|Read")
	add(event.SubagentStart, "explore")
	add(event.BeforeShellExecution, "^git ")
	add(event.BeforeReadFile, "Read")
	// A JSON object cannot repeat keys: one file per item.
	return strings.Join(items, "\n")
}

var hookNumber = regexp.MustCompile(`\./h(\d+)\.sh$`)

func TestExportRoundTrip(t *testing.T) {
	var hooks []*config.Hook
	for i, item := range strings.Split(roundTripHooks(), "\n") {
		hs := hooksOf(t, config.Project, `{"version":1,"hooks":{`+item+`}}`)
		for _, h := range hs {
			h.Index = i // each its own, so warnings can be told apart
		}
		hooks = append(hooks, hs...)
	}
	for _, agent := range targets.Agents() {
		t.Run(agent, func(t *testing.T) {
			side := sides[agent]
			r := mustExport(t, agent, hooks)
			warned := map[int]bool{} // hooks whose matcher was not kept exactly
			for _, w := range r.Warnings {
				if w.Kind == export.KindMatcher {
					warned[w.Index] = true
				}
			}
			checked := 0
			for _, e := range entries(t, r) {
				cmd, _ := e.handler["command"].(string)
				if agent == "copilot" {
					cmd, _ = e.handler["bash"].(string)
				}
				m := hookNumber.FindStringSubmatch(cmd)
				if m == nil {
					t.Fatalf("command %q names no test hook", cmd)
				}
				n, _ := strconv.Atoi(m[1])
				h := hooks[n]
				checked++
				if !toolEvent(e.event) {
					req, err := side.dialect.Parse(side.payload(e.event, "", h.Step), e.event)
					if err != nil {
						t.Fatalf("%s: %v", e.event, err)
					}
					if !slices.Contains(steps(req.Calls), h.Step) {
						t.Errorf("%s[%d] exported to %s, which runs %v", h.Step, n, e.event, steps(req.Calls))
					}
					continue
				}
				for _, tool := range side.tools {
					agentRuns := side.matches(t, e.matcher, tool)
					req, err := side.dialect.Parse(side.payload(e.event, tool, h.Step), e.event)
					if err != nil {
						t.Fatalf("%s %s: %v", e.event, tool, err)
					}
					stepRuns, cursorRuns, value := cursorWouldRun(t, h, req.Calls)
					switch {
					case cursorRuns && !agentRuns && substringOnly(h.Matcher, value):
						// Cursor tests "Write" unanchored, so it also matches
						// TodoWrite; export takes a name as that tool, as
						// documented.
					case agentRuns && !stepRuns:
						t.Errorf("%s[%d] (matcher %q) runs as %s %q for %s, which is not %s (%v)",
							h.Step, n, h.Matcher, e.event, e.matcher, tool, h.Step, steps(req.Calls))
					case warned[h.Index]:
						// Translated approximately, and said so.
					case agentRuns != cursorRuns:
						t.Errorf("%s[%d] (matcher %q) as %s %q: %s runs it for %s: %v, Cursor: %v",
							h.Step, n, h.Matcher, e.event, e.matcher, agent, tool, agentRuns, cursorRuns)
					}
				}
			}
			if checked != r.Exported || checked == 0 {
				t.Fatalf("checked %d of %d exported hooks", checked, r.Exported)
			}
		})
	}
}

// toolEvent reports whether an agent event is about a tool.
func toolEvent(ev string) bool {
	switch strings.ToLower(ev[:1]) + ev[1:] {
	case "preToolUse", "postToolUse", "postToolUseFailure", "beforeTool", "afterTool":
		return true
	}
	return false
}

func steps(calls []agent.Call) []event.Step {
	var out []event.Step
	for _, c := range calls {
		out = append(out, c.Step)
	}
	return out
}

// cursorWouldRun says whether the calls include h's step, and whether
// Cursor would run h for it: its matcher tested as Cursor tests it. For
// the steps whose matcher export drops (the command line, the subagent
// type) the matcher is left out, as the warning says.
func cursorWouldRun(t *testing.T, h *config.Hook, calls []agent.Call) (step, runs bool, value string) {
	for _, c := range calls {
		if c.Step != h.Step {
			continue
		}
		step = true
		raw, err := c.JSON()
		if err != nil {
			t.Fatal(err)
		}
		var payload map[string]json.RawMessage
		if err := json.Unmarshal(raw, &payload); err != nil {
			t.Fatal(err)
		}
		switch h.Step {
		case event.BeforeShellExecution, event.AfterShellExecution, event.SubagentStart, event.SubagentStop:
			runs = true
			continue
		}
		v, ok := event.MatchTarget(h.Step, payload)
		if !ok || h.Matches(v) {
			runs, value = true, v
		}
	}
	return step, runs, value
}

// substringOnly reports whether a matcher that lists names matches value
// only because one of the names is part of it.
func substringOnly(matcher, value string) bool {
	alts, ok := export.SplitNames(matcher)
	if !ok {
		return false
	}
	for _, a := range alts {
		if a == value {
			return false
		}
	}
	return true
}

func TestExportRoundTripCoversEveryStep(t *testing.T) {
	// Each step the dialects can produce for an agent is exported for it:
	// what the runtime side serves, the native side does not silently drop.
	for _, agent := range targets.Agents() {
		side := sides[agent]
		produced := map[event.Step]bool{}
		for _, ev := range targets.Lookup(agent).EventOrder {
			tools := []string{""}
			if toolEvent(ev) {
				tools = side.tools
			}
			for _, tool := range tools {
				for _, step := range []event.Step{event.PostToolUse, event.PostToolUseFailure} {
					req, err := side.dialect.Parse(side.payload(ev, tool, step), ev)
					if err != nil {
						t.Fatalf("%s %s %s: %v", agent, ev, tool, err)
					}
					for _, s := range steps(req.Calls) {
						produced[s] = true
					}
				}
			}
		}
		for s := range produced {
			if _, ok := targets.Lookup(agent).Steps[s]; !ok {
				t.Errorf("%s: the dialect runs %s, which export skips", agent, s)
			}
		}
	}
}
