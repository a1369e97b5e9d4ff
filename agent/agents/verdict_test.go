package agents

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/claude"
	"github.com/agenthooks/agenthooks/agent/opencode"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
)

func ptr[T any](v T) *T { return &v }

func TestMerge(t *testing.T) {
	cases := []struct {
		name string
		ds   []*engine.Decision
		want agent.Verdict
	}{{
		name: "nothing said",
		ds:   []*engine.Decision{{Step: event.PreToolUse}, {Step: event.BeforeShellExecution}},
		want: agent.Verdict{},
	}, {
		name: "the most restrictive permission of the steps wins",
		ds: []*engine.Decision{
			{Step: event.PreToolUse, Permission: event.Allow, UserMessage: "fine by me"},
			{Step: event.BeforeShellExecution, Permission: event.Deny, UserMessage: "no git",
				ClientMessage: "Command execution was blocked by a hook: no git", ModelMessage: "The terminal command was rejected by a hook. no git " + agent.NoWorkaround},
		},
		want: agent.Verdict{Permission: event.Deny, Reason: "The terminal command was rejected by a hook. no git " + agent.NoWorkaround,
			UserMessage: "Command execution was blocked by a hook: no git"},
	}, {
		name: "two denials: the first's model message, then the other hook's words",
		ds: []*engine.Decision{
			{Step: event.PreToolUse, Permission: event.Deny, AgentMessage: "shell is off", ModelMessage: "The Shell tool call was rejected by a hook. shell is off " + agent.NoWorkaround, ClientMessage: "Tool use was blocked by a hook"},
			{Step: event.BeforeShellExecution, Permission: event.Deny, AgentMessage: "use gh", ModelMessage: "The terminal command was rejected by a hook. use gh " + agent.NoWorkaround, ClientMessage: "Command execution was blocked by a hook"},
		},
		want: agent.Verdict{Permission: event.Deny, Reason: "The Shell tool call was rejected by a hook. shell is off " + agent.NoWorkaround + "\nuse gh",
			UserMessage: "Tool use was blocked by a hook\nCommand execution was blocked by a hook"},
	}, {
		name: "a deny drops a rewrite",
		ds: []*engine.Decision{
			{Step: event.PreToolUse, UpdatedInput: json.RawMessage(`{"command":"ls"}`)},
			{Step: event.BeforeShellExecution, Permission: event.Deny, ModelMessage: "m", ClientMessage: "c"},
		},
		want: agent.Verdict{Permission: event.Deny, Reason: "m", UserMessage: "c"},
	}, {
		name: "ask, with the askers' messages",
		ds: []*engine.Decision{
			{Step: event.PreToolUse, Permission: event.Ask, UserMessage: "push to prod?"},
			{Step: event.BeforeShellExecution, Permission: event.Allow, UserMessage: "ignored"},
		},
		want: agent.Verdict{Permission: event.Ask, UserMessage: "push to prod?"},
	}, {
		name: "allow, with a rewrite",
		ds: []*engine.Decision{
			{Step: event.PreToolUse, Permission: event.Allow, UserMessage: "ok", UpdatedInput: json.RawMessage(`{"command":"ls -a"}`)},
		},
		want: agent.Verdict{Permission: event.Allow, UserMessage: "ok", UpdatedInput: map[string]any{"command": "ls -a"}},
	}, {
		name: "a redaction no agent can apply refuses the read",
		ds: []*engine.Decision{
			{Step: event.PreToolUse},
			{Step: event.BeforeReadFile, Permission: event.Allow, NewContent: ptr("[redacted]")},
		},
		want: agent.Verdict{Permission: event.Deny,
			Reason:      "File reading was blocked: a hook redacts this file's content, and the redacted text cannot be handed to this agent. " + agent.NoWorkaround,
			UserMessage: "File reading was blocked: a hook redacts this file's content, and the redacted text cannot be handed to this agent. " + agent.NoWorkaround},
	}, {
		name: "a blocked prompt",
		ds:   []*engine.Decision{{Step: event.BeforeSubmitPrompt, Continue: ptr(false), ClientMessage: "Submission blocked by hook: pii"}},
		want: agent.Verdict{PromptBlocked: true, PromptMessage: "Submission blocked by hook: pii"},
	}, {
		name: "a prompt let through",
		ds:   []*engine.Decision{{Step: event.BeforeSubmitPrompt, Continue: ptr(true)}},
		want: agent.Verdict{},
	}, {
		name: "a follow-up",
		ds:   []*engine.Decision{{Step: event.Stop, FollowupMessage: "again"}},
		want: agent.Verdict{Followup: "again"},
	}, {
		name: "session env and context",
		ds:   []*engine.Decision{{Step: event.SessionStart, Env: map[string]string{"A": "1"}, AdditionalContext: "ctx"}},
		want: agent.Verdict{Env: map[string]string{"A": "1"}, Context: "ctx"},
	}, {
		name: "postToolUse context and MCP output",
		ds: []*engine.Decision{
			{Step: event.PostToolUse, AdditionalContext: "one", UpdatedMCPToolOutput: json.RawMessage(`{"r":1}`)},
			{Step: event.AfterMCPExecution},
		},
		want: agent.Verdict{Context: "one", UpdatedToolOutput: json.RawMessage(`{"r":1}`)},
	}, {
		name: "preCompact messages",
		ds:   []*engine.Decision{{Step: event.PreCompact, UserMessage: "compacting"}},
		want: agent.Verdict{Notice: "compacting"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := agent.Merge(tc.ds)
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("Merge =\n %+v\nwant\n %+v", *got, tc.want)
			}
		})
	}
}

func TestRecheck(t *testing.T) {
	shell, err := claude.Dialect.Parse([]byte(claudeBash), "")
	if err != nil {
		t.Fatal(err)
	}
	// Every preToolUse hook judges the rewritten input, and the shell gate
	// the new command.
	got := shell.Recheck(&agent.Verdict{UpdatedInput: map[string]any{"command": "rm -rf /"}})
	if len(got) != 2 || got[0].Step != event.PreToolUse || got[1].Step != event.BeforeShellExecution || got[1].Payload["command"] != "rm -rf /" {
		t.Fatalf("Recheck of a rewritten command = %+v, want preToolUse and beforeShellExecution of it", got)
	}
	if in := got[0].Payload["tool_input"].(map[string]any); in["command"] != "rm -rf /" || in["description"] != "push" {
		t.Errorf("preToolUse of the rewrite sees %v, want the new command over the old input", in)
	}
	if got[1].Payload["conversation_id"] != "s1" || got[1].Payload["cwd"] != "/repo" {
		t.Errorf("the recheck lost the common fields: %+v", got[1].Payload)
	}
	// A rewrite that leaves the command alone still goes past preToolUse.
	if got := shell.Recheck(&agent.Verdict{UpdatedInput: map[string]any{"command": "git push", "description": "x"}}); len(got) != 1 || got[0].Step != event.PreToolUse {
		t.Errorf("Recheck of an unchanged command = %+v, want preToolUse only", got)
	}
	if got := shell.Recheck(&agent.Verdict{Permission: event.Deny, UpdatedInput: map[string]any{"command": "x"}}); got != nil {
		t.Errorf("Recheck of a denied call = %+v, want none", got)
	}

	read, err := opencode.Dialect.Parse([]byte(opencodeRead), "")
	if err != nil {
		t.Fatal(err)
	}
	got = read.Recheck(&agent.Verdict{UpdatedInput: map[string]any{"file_path": "b.txt"}})
	if len(got) != 2 || got[1].Step != event.BeforeReadFile || got[1].Payload["file_path"] != "/repo/b.txt" {
		t.Fatalf("Recheck of a rewritten path = %+v, want preToolUse and beforeReadFile of /repo/b.txt", got)
	}
	if _, ok := got[1].Payload["content"]; ok {
		t.Error("the recheck carries the old file's content")
	}

	// A rewritten path under the agent's own spelling, and every path of
	// a rewrite that names two, go past the read gate.
	steps := func(calls []agent.Call) (out []string) {
		for _, c := range calls {
			s := string(c.Step)
			for _, k := range []string{"file_path", "command"} {
				if v, ok := c.Payload[k].(string); ok {
					s += " " + v
				}
			}
			out = append(out, s)
		}
		return out
	}
	got = read.Recheck(&agent.Verdict{UpdatedInput: map[string]any{"filePath": "/repo/.env"}})
	if s := steps(got); !slices.Contains(s, "beforeReadFile /repo/.env") {
		t.Errorf("Recheck of OpenCode's own spelling = %q", s)
	}
	got = read.Recheck(&agent.Verdict{UpdatedInput: map[string]any{"file_path": "/repo/x", "path": "/repo/.env"}})
	if s := steps(got); !slices.Contains(s, "beforeReadFile /repo/.env") || !slices.Contains(s, "beforeReadFile /repo/x") {
		t.Errorf("Recheck of a rewrite naming two files = %q", s)
	}
	// An MCP call's new arguments go past beforeMCPExecution, a task's
	// new prompt past subagentStart.
	mcp, err := claude.Dialect.Parse([]byte(`{"session_id":"s1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"mcp__db__query","tool_input":{"query":"SELECT 1"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	got = mcp.Recheck(&agent.Verdict{UpdatedInput: map[string]any{"query": "DROP TABLE users"}})
	if len(got) != 2 || got[1].Step != event.BeforeMCPExecution || !strings.Contains(fmt.Sprint(got[1].Payload["tool_input"]), "DROP TABLE") {
		t.Errorf("Recheck of a rewritten MCP call = %+v", got)
	}
	task, err := claude.Dialect.Parse([]byte(`{"session_id":"s1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Task","tool_input":{"prompt":"fix tests","subagent_type":"coder"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	got = task.Recheck(&agent.Verdict{UpdatedInput: map[string]any{"prompt": "EVIL task"}})
	if len(got) != 2 || got[1].Step != event.SubagentStart || got[1].Payload["task"] != "EVIL task" {
		t.Errorf("Recheck of a rewritten task = %+v", got)
	}

	prompt, _ := claude.Dialect.Parse([]byte(`{"hook_event_name":"UserPromptSubmit","prompt":"x"}`), "")
	if got := prompt.Recheck(&agent.Verdict{UpdatedInput: map[string]any{"command": "x"}}); got != nil {
		t.Errorf("Recheck of a prompt = %+v", got)
	}
}

// A second round that rewrites the input again, to anything but what it
// judged, leaves an input no hook judged.
func TestRewritten(t *testing.T) {
	r, err := claude.Dialect.Parse([]byte(claudeBash), "")
	if err != nil {
		t.Fatal(err)
	}
	first := &agent.Verdict{UpdatedInput: map[string]any{"command": "git status"}}
	pre := func(updated string) []*engine.Decision {
		return []*engine.Decision{{Step: event.PreToolUse, UpdatedInput: json.RawMessage(updated)}}
	}
	cases := map[string]bool{
		``:                         false, // no second rewrite
		`{"command":"git status"}`: false, // the same again
		`{"command":"git status","description":"push"}`: false, // the judged input echoed
		`{"command":"git push"}`:                        true,
		`{"description":"other"}`:                       true,
	}
	for updated, want := range cases {
		ds := pre(updated)
		if updated == "" {
			ds = []*engine.Decision{{Step: event.PreToolUse}}
		}
		if got := r.Rewritten(first, ds); got != want {
			t.Errorf("second rewrite %s: Rewritten %v, want %v", updated, got, want)
		}
	}
}

// claudeBash is a Claude Code PreToolUse of Bash (as in agent/claude's
// tests).
const claudeBash = `{"session_id":"s1","prompt_id":"p1","transcript_path":"/t.jsonl","cwd":"/repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push","description":"push"}}`

// opencodeRead is an OpenCode read (as in agent/opencode's tests).
const opencodeRead = `{"hook":"tool.execute.before","input":{"tool":"read","sessionID":"o1","callID":"k1"},"output":{"args":{"filePath":"/repo/a","limit":5}},"directory":"/repo"}`
