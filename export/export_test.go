package export_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/export"
)

// where is a step's place in a target: event and matcher.
type where struct{ event, matcher string }

// stepsWant is, per target, where each Cursor step goes; a step not
// listed is skipped with a KindStep warning.
var stepsWant = map[string]map[event.Step]where{
	"claude": {
		event.SessionStart:         {"SessionStart", ""},
		event.SessionEnd:           {"SessionEnd", ""},
		event.PreToolUse:           {"PreToolUse", ""},
		event.PostToolUse:          {"PostToolUse", ""},
		event.PostToolUseFailure:   {"PostToolUseFailure", ""},
		event.SubagentStart:        {"PreToolUse", "Task|Agent"},
		event.SubagentStop:         {"SubagentStop", ""},
		event.BeforeShellExecution: {"PreToolUse", "Bash"},
		event.AfterShellExecution:  {"PostToolUse", "Bash"},
		event.BeforeMCPExecution:   {"PreToolUse", "^mcp__.*$"},
		event.AfterMCPExecution:    {"PostToolUse", "^mcp__.*$"},
		event.BeforeReadFile:       {"PreToolUse", "Read"},
		event.AfterFileEdit:        {"PostToolUse", "Write|Edit|MultiEdit|NotebookEdit"},
		event.BeforeSubmitPrompt:   {"UserPromptSubmit", ""},
		event.PreCompact:           {"PreCompact", ""},
		event.Stop:                 {"Stop", ""},
	},
	"gemini": {
		event.SessionStart:         {"SessionStart", ""},
		event.SessionEnd:           {"SessionEnd", ""},
		event.PreToolUse:           {"BeforeTool", ""},
		event.PostToolUse:          {"AfterTool", ""},
		event.PostToolUseFailure:   {"AfterTool", ""},
		event.BeforeShellExecution: {"BeforeTool", "^run_shell_command$"},
		event.AfterShellExecution:  {"AfterTool", "^run_shell_command$"},
		event.BeforeMCPExecution:   {"BeforeTool", "^mcp_.*$"},
		event.AfterMCPExecution:    {"AfterTool", "^mcp_.*$"},
		event.BeforeReadFile:       {"BeforeTool", "^read_file$"},
		event.AfterFileEdit:        {"AfterTool", "^(?:write_file|replace|edit)$"},
		event.BeforeSubmitPrompt:   {"BeforeAgent", ""},
		event.PreCompact:           {"PreCompress", ""},
		event.Stop:                 {"AfterAgent", ""},
	},
	"codex": {
		event.SessionStart:         {"SessionStart", ""},
		event.SessionEnd:           {"SessionEnd", ""},
		event.PreToolUse:           {"PreToolUse", ""},
		event.PostToolUse:          {"PostToolUse", ""},
		event.SubagentStop:         {"SubagentStop", ""},
		event.BeforeShellExecution: {"PreToolUse", "Bash"},
		event.AfterShellExecution:  {"PostToolUse", "Bash"},
		event.BeforeMCPExecution:   {"PreToolUse", "^mcp__.*$"},
		event.AfterMCPExecution:    {"PostToolUse", "^mcp__.*$"},
		event.AfterFileEdit:        {"PostToolUse", "apply_patch"},
		event.BeforeSubmitPrompt:   {"UserPromptSubmit", ""},
		event.PreCompact:           {"PreCompact", ""},
		event.Stop:                 {"Stop", ""},
	},
	"copilot": {
		event.SessionStart:         {"sessionStart", ""},
		event.SessionEnd:           {"sessionEnd", ""},
		event.PreToolUse:           {"preToolUse", ""},
		event.PostToolUse:          {"postToolUse", ""},
		event.PostToolUseFailure:   {"postToolUseFailure", ""},
		event.SubagentStart:        {"preToolUse", "task"},
		event.SubagentStop:         {"subagentStop", ""},
		event.BeforeShellExecution: {"preToolUse", "bash|powershell"},
		event.AfterShellExecution:  {"postToolUse", "bash|powershell"},
		event.BeforeReadFile:       {"preToolUse", "view"},
		event.AfterFileEdit:        {"postToolUse", "create|edit"},
		event.BeforeSubmitPrompt:   {"userPromptSubmitted", ""},
		event.PreCompact:           {"preCompact", ""},
		event.Stop:                 {"agentStop", ""},
	},
}

func TestExportSteps(t *testing.T) {
	for _, agent := range targets.Agents() {
		for _, step := range event.Steps {
			t.Run(agent+"/"+string(step), func(t *testing.T) {
				r := mustExport(t, agent, hooksOf(t, config.Project, one(step, `{"command":"./x.sh"}`)))
				want, ok := stepsWant[agent][step]
				es := entries(t, r)
				if !ok {
					if r.Exported != 0 || r.Skipped != 1 || len(es) != 0 {
						t.Fatalf("want skipped, got:\n%s", dump(r))
					}
					ws := warningsOf(r, export.KindStep)
					if len(ws) != 1 || !ws[0].Skipped || ws[0].Step != step || !strings.Contains(ws[0].Message, "not exported") || ws[0].Fix == "" {
						t.Fatalf("want one skip warning, got:\n%s", dump(r))
					}
					return
				}
				if r.Exported != 1 || r.Skipped != 0 || len(es) != 1 {
					t.Fatalf("want one hook, got:\n%s", dump(r))
				}
				if es[0].event != want.event || es[0].matcher != want.matcher {
					t.Fatalf("got %s %q, want %s %q", es[0].event, es[0].matcher, want.event, want.matcher)
				}
				if n := len(warningsOf(r, export.KindPayload)); n != 1 {
					t.Fatalf("want one payload warning, got %d:\n%s", n, dump(r))
				}
			})
		}
	}
}

// Every step the dialect runs for an agent's event is exported to that
// event: the tables of export and of dialect agree (checked in full by
// the round trip in roundtrip_test.go).
func TestExportStepsCoverEventOrder(t *testing.T) {
	for _, tg := range targets {
		for step, m := range tg.Steps {
			if !slices.Contains(tg.EventOrder, m.Event) {
				t.Errorf("%s: %s goes to %s, which is not in the event order", tg.Name, step, m.Event)
			}
		}
	}
}

func TestExportMatchers(t *testing.T) {
	for _, c := range []struct {
		agent   string
		step    event.Step // default preToolUse
		matcher string
		want    string
		skip    bool
		warn    string // a matcher warning containing this; "" for none
	}{
		{agent: "claude", matcher: "Shell", want: "Bash"},
		{agent: "claude", matcher: "Shell|Write", want: "Bash|Write|Edit|MultiEdit|NotebookEdit"},
		{agent: "claude", matcher: "^(Read|Grep)$", want: "Read|Grep"},
		{agent: "claude", matcher: "(?:Glob|Task)", want: "Glob|Task|Agent"},
		{agent: "claude", matcher: "MCP:search", want: "^mcp__.+__search$"},
		{agent: "claude", matcher: "MCP:.*", want: "^mcp__.*$"},
		{agent: "claude", matcher: "MCP:", want: "^mcp__.*$"},
		{agent: "claude", matcher: "MCP:get_.*", want: "^mcp__.+__get_.*$"},
		{agent: "claude", matcher: "Shell|MCP:", want: "^(?:Bash|mcp__.*)$"},
		{agent: "claude", matcher: "Shell|Shell", want: "Bash"},
		{agent: "claude", matcher: "*", want: ""},
		{agent: "claude", matcher: ".*", want: ""},
		{agent: "claude", matcher: "TodoWrite", want: "TodoWrite"},
		{agent: "claude", matcher: "Frobnicate", want: "Frobnicate", warn: `"Frobnicate" is not a tool name agenthooks knows`},
		{agent: "claude", matcher: "Delete", skip: true, warn: "has no counterpart for Delete"},
		{agent: "claude", matcher: "Shell|Delete", want: "Bash", warn: "has no counterpart for Delete: dropped"},
		{agent: "claude", matcher: "^Sh", want: "Bash", warn: "is a regular expression, not a list of tool names"},
		{agent: "claude", matcher: "^(?!Shell)", want: "^(?:Read|Write|Edit|MultiEdit|NotebookEdit|Grep|Glob|Task|Agent|WebFetch|WebSearch|LS|mcp__.*)$",
			warn: "JavaScript-only syntax"},
		{agent: "claude", matcher: "Shell|", want: "", warn: "matches every tool"},
		{agent: "claude", matcher: "^Tab", skip: true, warn: "matches none of the tools"},
		{agent: "gemini", matcher: "Shell", want: "^run_shell_command$"},
		{agent: "gemini", matcher: "Read|Write", want: "^(?:read_file|read_many_files|write_file|replace|edit)$"},
		{agent: "gemini", matcher: "MCP:search", want: "^mcp_.+_search$"},
		{agent: "gemini", matcher: "Task", skip: true, warn: "Gemini CLI has no counterpart for Task"},
		{agent: "codex", matcher: "Write", want: "apply_patch"},
		{agent: "codex", matcher: "Shell|MCP:search", want: "^(?:Bash|mcp__.+__search)$"},
		{agent: "codex", matcher: "Read", skip: true, warn: "Codex has no counterpart for Read"},
		{agent: "codex", matcher: "Shell|Read", want: "Bash", warn: "dropped from the matcher"},
		{agent: "copilot", matcher: "Shell", want: "bash|powershell"},
		{agent: "copilot", matcher: "Read|Task", want: "view|task"},
		{agent: "copilot", matcher: "MCP:x", skip: true, warn: "no counterpart for MCP:x"},
		{agent: "copilot", matcher: "Write|MCP:x", want: "create|edit", warn: "dropped from the matcher"},
		// Steps whose matcher tests something else.
		{agent: "claude", step: event.BeforeShellExecution, matcher: "^git ", want: "Bash", warn: "tests the command line"},
		{agent: "copilot", step: event.AfterShellExecution, matcher: "rm", want: "bash|powershell", warn: "tests the command line"},
		{agent: "claude", step: event.SubagentStart, matcher: "explore", want: "Task|Agent", warn: "subagent type"},
		{agent: "codex", step: event.SubagentStop, matcher: "explore", want: "", warn: "subagent type"},
		{agent: "claude", step: event.AfterFileEdit, matcher: "Write", want: "Write|Edit|MultiEdit|NotebookEdit"},
		{agent: "claude", step: event.AfterFileEdit, matcher: "TabWrite", skip: true, warn: `never matches "Write"`},
		{agent: "gemini", step: event.BeforeReadFile, matcher: "Read|TabRead", want: "^read_file$"},
		{agent: "claude", step: event.Stop, matcher: "Stop", want: ""},
		{agent: "gemini", step: event.BeforeSubmitPrompt, matcher: "Nope", skip: true, warn: "never matches"},
		{agent: "claude", step: event.SessionStart, matcher: "whatever", want: ""},
		{agent: "claude", step: event.BeforeMCPExecution, matcher: "whatever", want: "^mcp__.*$"},
	} {
		step := c.step
		if step == "" {
			step = event.PreToolUse
		}
		t.Run(c.agent+"/"+string(step)+"/"+c.matcher, func(t *testing.T) {
			r := mustExport(t, c.agent, hooksOf(t, config.Project, one(step, `{"command":"./x.sh","matcher":`+jsonString(c.matcher)+`}`)))
			ws := warningsOf(r, export.KindMatcher)
			switch {
			case c.warn == "" && len(ws) > 0:
				t.Fatalf("unexpected matcher warning:\n%s", dump(r))
			case c.warn != "" && (len(ws) != 1 || !strings.Contains(ws[0].Message, c.warn) || ws[0].Fix == ""):
				t.Fatalf("want one matcher warning with %q, got:\n%s", c.warn, dump(r))
			}
			es := entries(t, r)
			if c.skip {
				if len(es) != 0 || r.Skipped != 1 || !ws[0].Skipped {
					t.Fatalf("want skipped, got:\n%s", dump(r))
				}
				return
			}
			if len(es) != 1 || es[0].matcher != c.want {
				t.Fatalf("want matcher %q, got:\n%s", c.want, dump(r))
			}
		})
	}
}

func TestExportTimeouts(t *testing.T) {
	for _, c := range []struct {
		agent string
		step  event.Step
		hook  string
		key   string
		want  float64
		warn  bool
	}{
		{"claude", event.Stop, `{"command":"./x.sh"}`, "timeout", 60, false},
		{"claude", event.Stop, `{"type":"prompt","prompt":"done?"}`, "timeout", 30, false},
		{"claude", event.Stop, `{"command":"./x.sh","timeout":5}`, "timeout", 5, false},
		{"claude", event.Stop, `{"command":"./x.sh","timeout":2.5}`, "timeout", 3, true},
		{"claude", event.Stop, `{"command":"./x.sh","timeout":0.001}`, "timeout", 1, true},
		{"claude", event.SessionEnd, `{"command":"./x.sh","timeout":120}`, "timeout", 120, true},
		{"claude", event.SessionEnd, `{"command":"./x.sh","timeout":60}`, "timeout", 60, false},
		{"codex", event.Stop, `{"command":"./x.sh"}`, "timeout", 60, false},
		{"codex", event.Stop, `{"command":"./x.sh","timeout":0.5}`, "timeout", 1, true},
		{"gemini", event.Stop, `{"command":"./x.sh"}`, "timeout", 60000, false},
		{"gemini", event.Stop, `{"command":"./x.sh","timeout":2.5}`, "timeout", 2500, false},
		{"gemini", event.Stop, `{"command":"./x.sh","timeout":0.0015}`, "timeout", 2, true},
		{"copilot", event.Stop, `{"command":"./x.sh"}`, "timeoutSec", 60, false},
		{"copilot", event.Stop, `{"command":"./x.sh","timeout":7.2}`, "timeoutSec", 8, true},
	} {
		t.Run(c.agent+"/"+c.hook, func(t *testing.T) {
			r := mustExport(t, c.agent, hooksOf(t, config.Project, one(c.step, c.hook)))
			es := entries(t, r)
			if len(es) != 1 {
				t.Fatalf("want one hook:\n%s", dump(r))
			}
			if got := es[0].handler[c.key]; got != c.want {
				t.Fatalf("%s = %v, want %v", c.key, got, c.want)
			}
			if ws := warningsOf(r, export.KindTimeout); (len(ws) == 1) != c.warn || len(ws) > 1 {
				t.Fatalf("timeout warnings: want %v, got:\n%s", c.warn, dump(r))
			}
		})
	}
}

func TestExportWarnings(t *testing.T) {
	for _, c := range []struct {
		name  string
		agent string
		src   config.Source
		step  event.Step
		hook  string
		want  []export.Kind
		not   []export.Kind
		skip  bool
	}{
		{name: "failClosed", agent: "claude", step: event.BeforeShellExecution, hook: `{"command":"./x.sh","failClosed":true}`, want: []export.Kind{export.KindFailClosed}},
		{name: "failClosed", agent: "gemini", step: event.BeforeReadFile, hook: `{"command":"./x.sh","failClosed":true}`, want: []export.Kind{export.KindFailClosed}},
		{name: "failClosed", agent: "codex", step: event.PreToolUse, hook: `{"command":"./x.sh","failClosed":true}`, want: []export.Kind{export.KindFailClosed}},
		{name: "failClosed", agent: "copilot", step: event.PreToolUse, hook: `{"command":"./x.sh","failClosed":true}`, want: []export.Kind{export.KindFailClosed}},
		{name: "fail open", agent: "claude", step: event.BeforeShellExecution, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindFailClosed}},
		{name: "loop default", agent: "claude", step: event.Stop, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindLoopLimit}},
		{name: "loop 8", agent: "claude", step: event.Stop, hook: `{"command":"./x.sh","loop_limit":8}`, not: []export.Kind{export.KindLoopLimit}},
		{name: "loop null", agent: "claude", step: event.SubagentStop, hook: `{"command":"./x.sh","loop_limit":null}`, want: []export.Kind{export.KindLoopLimit}},
		{name: "loop", agent: "gemini", step: event.Stop, hook: `{"command":"./x.sh","loop_limit":2}`, want: []export.Kind{export.KindLoopLimit}},
		{name: "loop", agent: "codex", step: event.SubagentStop, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindLoopLimit}},
		{name: "loop", agent: "copilot", step: event.Stop, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindLoopLimit}},
		{name: "no loop", agent: "claude", step: event.PreToolUse, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindLoopLimit}},
		{name: "prompt", agent: "claude", step: event.PreToolUse, hook: `{"type":"prompt","prompt":"safe?"}`, want: []export.Kind{export.KindPayload}, not: []export.Kind{export.KindPrompt}},
		{name: "prompt model", agent: "claude", step: event.Stop, hook: `{"type":"prompt","prompt":"done?","model":"gpt-4o-mini"}`, want: []export.Kind{export.KindPrompt}},
		{name: "prompt claude model", agent: "claude", step: event.Stop, hook: `{"type":"prompt","prompt":"done?","model":"claude-haiku-4-5"}`, not: []export.Kind{export.KindPrompt}},
		{name: "prompt at session start", agent: "claude", step: event.SessionStart, hook: `{"type":"prompt","prompt":"x"}`, want: []export.Kind{export.KindPrompt}, skip: true},
		{name: "prompt", agent: "gemini", step: event.PreToolUse, hook: `{"type":"prompt","prompt":"safe?"}`, want: []export.Kind{export.KindPrompt}, skip: true},
		{name: "prompt", agent: "codex", step: event.Stop, hook: `{"type":"prompt","prompt":"done?"}`, want: []export.Kind{export.KindPrompt}, skip: true},
		{name: "prompt", agent: "copilot", step: event.SessionStart, hook: `{"type":"prompt","prompt":"x"}`, want: []export.Kind{export.KindPrompt}, skip: true},
		{name: "ask", agent: "codex", step: event.BeforeShellExecution, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindAsk}},
		{name: "ask", agent: "codex", step: event.BeforeMCPExecution, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindAsk}},
		{name: "ask", agent: "copilot", step: event.BeforeShellExecution, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindAsk}},
		{name: "ask", agent: "claude", step: event.BeforeShellExecution, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindAsk}},
		{name: "ask", agent: "gemini", step: event.BeforeMCPExecution, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindAsk}},
		{name: "ask not at preToolUse", agent: "codex", step: event.PreToolUse, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindAsk}},
		{name: "exit 2", agent: "copilot", step: event.BeforeShellExecution, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindExitCode}},
		{name: "exit 2", agent: "copilot", step: event.SubagentStart, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindExitCode}},
		{name: "exit 2", agent: "copilot", step: event.PostToolUse, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindExitCode}},
		{name: "exit 2", agent: "codex", step: event.BeforeMCPExecution, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindExitCode}},
		{name: "exit codes", agent: "gemini", step: event.BeforeShellExecution, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindExitCode}},
		{name: "exit codes", agent: "gemini", step: event.BeforeSubmitPrompt, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindExitCode}},
		{name: "exit codes", agent: "gemini", step: event.Stop, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindExitCode}},
		{name: "exit codes", agent: "gemini", step: event.AfterFileEdit, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindExitCode}},
		{name: "exit 2 compact", agent: "claude", step: event.PreCompact, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindExitCode}},
		{name: "exit 2", agent: "claude", step: event.BeforeShellExecution, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindExitCode}},
		{name: "content", agent: "claude", step: event.BeforeReadFile, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindContent}},
		{name: "content", agent: "gemini", step: event.BeforeReadFile, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindContent}},
		{name: "content", agent: "copilot", step: event.BeforeReadFile, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindContent}},
		{name: "read", agent: "codex", step: event.BeforeReadFile, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindStep}, not: []export.Kind{export.KindContent}, skip: true},
		{name: "failure event", agent: "gemini", step: event.PostToolUseFailure, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindEvent}},
		{name: "failure event", agent: "claude", step: event.PostToolUseFailure, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindEvent}},
		{name: "prompt block", agent: "copilot", step: event.BeforeSubmitPrompt, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindEvent}},
		{name: "session env", agent: "gemini", step: event.SessionStart, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindEvent}},
		{name: "session env", agent: "copilot", step: event.SessionStart, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindEvent}},
		{name: "session env file", agent: "claude", step: event.SessionStart, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindEvent}},
		{name: "source", agent: "claude", src: config.Enterprise, step: event.Stop, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindSource}},
		{name: "source", agent: "copilot", src: config.Team, step: event.Stop, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindSource}},
		{name: "source", agent: "claude", src: config.User, step: event.Stop, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindSource}},
		{name: "location", agent: "codex", step: event.Stop, hook: `{"command":"./x.sh"}`, want: []export.Kind{export.KindLocation}},
		{name: "location", agent: "codex", src: config.User, step: event.Stop, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindLocation}},
		{name: "location", agent: "claude", step: event.Stop, hook: `{"command":"./x.sh"}`, not: []export.Kind{export.KindLocation}},
	} {
		src := c.src
		if src == (config.Source{}) {
			src = config.Project
		}
		t.Run(c.agent+"/"+string(c.step)+"/"+c.name, func(t *testing.T) {
			r := mustExport(t, c.agent, hooksOf(t, src, one(c.step, c.hook)))
			var got []export.Kind
			for _, w := range r.Warnings {
				got = append(got, w.Kind)
				if w.Message == "" || w.Fix == "" {
					t.Errorf("warning without a message or a fix: %+v", w)
				}
			}
			for _, k := range c.want {
				if !has(got, k) {
					t.Errorf("want a %s warning, got:\n%s", k, dump(r))
				}
			}
			for _, k := range c.not {
				if has(got, k) {
					t.Errorf("want no %s warning, got:\n%s", k, dump(r))
				}
			}
			if c.skip != (r.Exported == 0) {
				t.Errorf("skipped = %v, want %v:\n%s", r.Exported == 0, c.skip, dump(r))
			}
		})
	}
}

// Every exported command hook gets exactly one payload warning; file
// warnings come once per file, before its hooks'.
func TestExportWarningCounts(t *testing.T) {
	doc := `{"version":1,"hooks":{
		"preToolUse":[{"command":"./a.sh"},{"command":"./b.sh","matcher":"Shell"}],
		"stop":[{"command":"./c.sh"}],
		"afterAgentThought":[{"command":"./d.sh"}]}}`
	hooks := hooksOf(t, config.Enterprise, doc)
	for _, agent := range targets.Agents() {
		r := mustExport(t, agent, hooks)
		if r.Exported != 3 || r.Skipped != 1 {
			t.Fatalf("%s: exported %d, skipped %d", agent, r.Exported, r.Skipped)
		}
		if n := len(warningsOf(r, export.KindPayload)); n != 3 {
			t.Errorf("%s: %d payload warnings, want 3", agent, n)
		}
		src := warningsOf(r, export.KindSource)
		if len(src) != 1 || src[0].Step != "" || r.Warnings[0].Kind != export.KindSource {
			t.Errorf("%s: want one source warning first, got:\n%s", agent, dump(r))
		}
		if !strings.HasPrefix(src[0].String(), "/etc/cursor/hooks.json: these are enterprise hooks") {
			t.Errorf("%s: file warning: %s", agent, src[0])
		}
	}
}

func TestExportCommands(t *testing.T) {
	weird := "/home/o'neil/my hooks"
	for _, c := range []struct {
		agent string
		src   config.Source
		dir   string
		key   string
		want  string
		cwd   string
	}{
		{"claude", config.Project, projectRoot, "command", `cd "$CLAUDE_PROJECT_DIR" || exit 1; ./x.sh a && b`, ""},
		{"claude", config.User, userDir, "command", `cd /home/u/.cursor || exit 1; ./x.sh a && b`, ""},
		{"claude", config.User, weird, "command", `cd '/home/o'\''neil/my hooks' || exit 1; ./x.sh a && b`, ""},
		{"claude", config.User, "", "command", `./x.sh a && b`, ""},
		{"gemini", config.Project, projectRoot, "command", `cd $GEMINI_PROJECT_DIR || exit 1; ./x.sh a && b`, ""},
		{"gemini", config.Enterprise, "/etc/cursor", "command", `cd /etc/cursor || exit 1; ./x.sh a && b`, ""},
		{"codex", config.Project, projectRoot, "command", `cd /w/app || exit 1; ./x.sh a && b`, ""},
		{"copilot", config.Project, projectRoot, "bash", `./x.sh a && b`, "."},
		{"copilot", config.User, userDir, "powershell", `./x.sh a && b`, userDir},
	} {
		t.Run(c.agent+"/"+c.src.String()+"/"+c.dir, func(t *testing.T) {
			hooks := hooksOf(t, c.src, one(event.Stop, `{"command":"./x.sh a && b"}`))
			hooks[0].Dir = c.dir
			r := mustExport(t, c.agent, hooks)
			es := entries(t, r)
			if got := es[0].handler[c.key]; got != c.want {
				t.Errorf("%s = %v, want %v", c.key, got, c.want)
			}
			if c.agent == "copilot" {
				if got := es[0].handler["cwd"]; got != c.cwd {
					t.Errorf("cwd = %v, want %v", got, c.cwd)
				}
				if es[0].handler["bash"] != es[0].handler["powershell"] {
					t.Errorf("bash and powershell differ: %v", es[0].handler)
				}
			}
			if strings.Contains(string(r.Document), `\u0026`) {
				t.Errorf("document escapes &: %s", r.Document)
			}
		})
	}
}

// The exported commands run where Cursor runs them, whatever the command
// is and whatever the folder is called.
func TestExportCommandsRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the exported commands are sh commands")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	base := t.TempDir()
	dir := filepath.Join(base, `it's a "dir" $HOME`)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	command := `pwd > a; echo two > b & wait; test -f a || exit 3`
	for _, c := range []struct {
		agent string
		src   config.Source
		env   []string
	}{
		{"claude", config.User, nil},
		{"claude", config.Project, []string{"CLAUDE_PROJECT_DIR=" + dir}},
		{"codex", config.Project, nil},
		{"gemini", config.User, nil},
	} {
		t.Run(c.agent+"/"+c.src.String(), func(t *testing.T) {
			for _, f := range []string{"a", "b"} {
				_ = os.Remove(filepath.Join(dir, f))
			}
			hooks := hooksOf(t, c.src, one(event.Stop, `{"command":`+jsonString(command)+`}`))
			hooks[0].Dir, hooks[0].Root = dir, dir
			r := mustExport(t, c.agent, hooks)
			line, _ := entries(t, r)[0].handler["command"].(string)
			cmd := exec.Command(sh, "-c", line)
			cmd.Dir = elsewhere
			cmd.Env = append(os.Environ(), c.env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", line, err, out)
			}
			got, err := os.ReadFile(filepath.Join(dir, "a"))
			if err != nil || strings.TrimSpace(string(got)) != dir {
				t.Fatalf("ran in %q (%v), want %q", got, err, dir)
			}
			if _, err := os.Stat(filepath.Join(dir, "b")); err != nil {
				t.Fatalf("the background part did not run there: %v", err)
			}
		})
	}
	// A folder that is gone: exit 1, a failure agents let pass.
	hooks := hooksOf(t, config.User, one(event.Stop, `{"command":"touch x"}`))
	hooks[0].Dir = filepath.Join(base, "gone")
	r := mustExport(t, "claude", hooks)
	line := entries(t, r)[0].handler["command"].(string)
	cmd := exec.Command(sh, "-c", line)
	cmd.Dir = elsewhere
	var ee *exec.ExitError
	if err := cmd.Run(); !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("missing folder: %v, want exit 1", err)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "x")); err == nil {
		t.Fatal("the command ran in the wrong folder")
	}
}

func TestExportPromptHooks(t *testing.T) {
	doc := `{"version":1,"hooks":{
		"beforeShellExecution":[{"type":"prompt","prompt":"Is $ARGUMENTS safe?","model":"claude-haiku","timeout":10}],
		"stop":[{"type":"prompt","prompt":"Done?"}]}}`
	r := mustExport(t, "claude", hooksOf(t, config.Project, doc))
	es := entries(t, r)
	if len(es) != 2 {
		t.Fatalf("want 2 hooks:\n%s", dump(r))
	}
	pre, stop := es[0].handler, es[1].handler
	if es[0].event != "PreToolUse" || es[0].matcher != "Bash" || pre["type"] != "prompt" || pre["prompt"] != "Is $ARGUMENTS safe?" ||
		pre["model"] != "claude-haiku" || pre["timeout"] != 10.0 || pre["continueOnBlock"] != true || pre["command"] != nil {
		t.Errorf("PreToolUse prompt hook: %v", pre)
	}
	if es[1].event != "Stop" || stop["type"] != "prompt" || stop["timeout"] != 30.0 || stop["continueOnBlock"] != nil || stop["model"] != nil {
		t.Errorf("Stop prompt hook: %v", stop)
	}
}

func TestExportGrouping(t *testing.T) {
	doc := `{"version":1,"hooks":{
		"beforeShellExecution":[{"command":"./a.sh"},{"command":"./b.sh"}],
		"preToolUse":[{"command":"./c.sh","matcher":"Shell"},{"command":"./d.sh"}],
		"sessionStart":[{"command":"./e.sh"}]}}`
	hooks := hooksOf(t, config.Project, doc)
	r := mustExport(t, "claude", hooks)
	var doc2 struct {
		Hooks map[string][]struct {
			Matcher string           `json:"matcher"`
			Hooks   []map[string]any `json:"hooks"`
		} `json:"hooks"`
	}
	if err := unmarshal(r.Document, &doc2); err != nil {
		t.Fatal(err)
	}
	pre := doc2.Hooks["PreToolUse"]
	if len(pre) != 2 || pre[0].Matcher != "Bash" || len(pre[0].Hooks) != 3 || pre[1].Matcher != "" || len(pre[1].Hooks) != 1 {
		t.Fatalf("groups: %s", r.Document)
	}
	// Events come in the agent's order, not the file's.
	if i, j := strings.Index(string(r.Document), "SessionStart"), strings.Index(string(r.Document), "PreToolUse"); i > j {
		t.Errorf("SessionStart after PreToolUse:\n%s", r.Document)
	}
	// Gemini names are unique, also across files.
	g := mustExport(t, "gemini", append(hooks, hooksOf(t, config.User, doc)...))
	seen := map[string]bool{}
	for _, e := range entries(t, g) {
		name, _ := e.handler["name"].(string)
		if name == "" || seen[name] {
			t.Fatalf("name %q missing or repeated:\n%s", name, g.Document)
		}
		seen[name] = true
	}
	if !seen["cursor-beforeShellExecution-0"] || !seen["cursor-beforeShellExecution-0-user"] {
		t.Errorf("names: %v", seen)
	}
}

func TestExportEmptyAndErrors(t *testing.T) {
	for _, agent := range targets.Agents() {
		r := mustExport(t, agent, nil)
		if r.Exported != 0 || len(r.Warnings) != 0 || len(entries(t, r)) != 0 {
			t.Errorf("%s: %s", agent, dump(r))
		}
		if r.Title == "" || r.ProjectPath == "" || r.UserPath == "" || targets.Title(agent) != r.Title {
			t.Errorf("%s: %+v", agent, r)
		}
	}
	if string(mustExport(t, "copilot", nil).Document) != "{\n  \"version\": 1,\n  \"hooks\": {}\n}\n" {
		t.Errorf("empty copilot document: %s", mustExport(t, "copilot", nil).Document)
	}
	_, err := targets.To("opencode", nil)
	var ua *export.UnknownAgentError
	if !errors.As(err, &ua) || ua.Agent != "opencode" || !strings.Contains(err.Error(), "claude, codex, gemini, copilot") {
		t.Fatalf("unknown agent: %v", err)
	}
	if targets.Title("vim") != "" {
		t.Error("Title of an unknown agent")
	}
}

func TestWarningString(t *testing.T) {
	w := export.Warning{File: "/p/.cursor/hooks.json", Step: event.Stop, Index: 2, Message: "lost", Fix: "do this"}
	if got := w.String(); got != "/p/.cursor/hooks.json:stop[2]: lost (do this)" {
		t.Errorf("got %q", got)
	}
	w = export.Warning{File: "/p/.cursor/hooks.json", Message: "about the file", Fix: "x"}
	if got := w.String(); got != "/p/.cursor/hooks.json: about the file (x)" {
		t.Errorf("got %q", got)
	}
}
