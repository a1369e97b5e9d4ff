package dialect

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
)

func ptr[T any](v T) *T { return &v }

func TestMerge(t *testing.T) {
	cases := []struct {
		name string
		ds   []*engine.Decision
		want Verdict
	}{{
		name: "nothing said",
		ds:   []*engine.Decision{{Step: event.PreToolUse}, {Step: event.BeforeShellExecution}},
		want: Verdict{},
	}, {
		name: "the most restrictive permission of the steps wins",
		ds: []*engine.Decision{
			{Step: event.PreToolUse, Permission: event.Allow, UserMessage: "fine by me"},
			{Step: event.BeforeShellExecution, Permission: event.Deny, UserMessage: "no git",
				ClientMessage: "Command execution was blocked by a hook: no git", ModelMessage: "The terminal command was rejected by a hook. no git " + noWorkaround},
		},
		want: Verdict{Permission: event.Deny, Reason: "The terminal command was rejected by a hook. no git " + noWorkaround,
			UserMessage: "Command execution was blocked by a hook: no git"},
	}, {
		name: "two denials: the first's model message, then the other hook's words",
		ds: []*engine.Decision{
			{Step: event.PreToolUse, Permission: event.Deny, AgentMessage: "shell is off", ModelMessage: "The Shell tool call was rejected by a hook. shell is off " + noWorkaround, ClientMessage: "Tool use was blocked by a hook"},
			{Step: event.BeforeShellExecution, Permission: event.Deny, AgentMessage: "use gh", ModelMessage: "The terminal command was rejected by a hook. use gh " + noWorkaround, ClientMessage: "Command execution was blocked by a hook"},
		},
		want: Verdict{Permission: event.Deny, Reason: "The Shell tool call was rejected by a hook. shell is off " + noWorkaround + "\nuse gh",
			UserMessage: "Tool use was blocked by a hook\nCommand execution was blocked by a hook"},
	}, {
		name: "a deny drops a rewrite",
		ds: []*engine.Decision{
			{Step: event.PreToolUse, UpdatedInput: json.RawMessage(`{"command":"ls"}`)},
			{Step: event.BeforeShellExecution, Permission: event.Deny, ModelMessage: "m", ClientMessage: "c"},
		},
		want: Verdict{Permission: event.Deny, Reason: "m", UserMessage: "c"},
	}, {
		name: "ask, with the askers' messages",
		ds: []*engine.Decision{
			{Step: event.PreToolUse, Permission: event.Ask, UserMessage: "push to prod?"},
			{Step: event.BeforeShellExecution, Permission: event.Allow, UserMessage: "ignored"},
		},
		want: Verdict{Permission: event.Ask, UserMessage: "push to prod?"},
	}, {
		name: "allow, with a rewrite",
		ds: []*engine.Decision{
			{Step: event.PreToolUse, Permission: event.Allow, UserMessage: "ok", UpdatedInput: json.RawMessage(`{"command":"ls -a"}`)},
		},
		want: Verdict{Permission: event.Allow, UserMessage: "ok", UpdatedInput: map[string]any{"command": "ls -a"}},
	}, {
		name: "a redaction no agent can apply refuses the read",
		ds: []*engine.Decision{
			{Step: event.PreToolUse},
			{Step: event.BeforeReadFile, Permission: event.Allow, NewContent: ptr("[redacted]")},
		},
		want: Verdict{Permission: event.Deny,
			Reason:      "File reading was blocked: a hook redacts this file's content, and the redacted text cannot be handed to this agent. " + noWorkaround,
			UserMessage: "File reading was blocked: a hook redacts this file's content, and the redacted text cannot be handed to this agent. " + noWorkaround},
	}, {
		name: "a blocked prompt",
		ds:   []*engine.Decision{{Step: event.BeforeSubmitPrompt, Continue: ptr(false), ClientMessage: "Submission blocked by hook: pii"}},
		want: Verdict{PromptBlocked: true, PromptMessage: "Submission blocked by hook: pii"},
	}, {
		name: "a prompt let through",
		ds:   []*engine.Decision{{Step: event.BeforeSubmitPrompt, Continue: ptr(true)}},
		want: Verdict{},
	}, {
		name: "a follow-up",
		ds:   []*engine.Decision{{Step: event.Stop, FollowupMessage: "again"}},
		want: Verdict{Followup: "again"},
	}, {
		name: "session env and context",
		ds:   []*engine.Decision{{Step: event.SessionStart, Env: map[string]string{"A": "1"}, AdditionalContext: "ctx"}},
		want: Verdict{Env: map[string]string{"A": "1"}, Context: "ctx"},
	}, {
		name: "postToolUse context and MCP output",
		ds: []*engine.Decision{
			{Step: event.PostToolUse, AdditionalContext: "one", UpdatedMCPToolOutput: json.RawMessage(`{"r":1}`)},
			{Step: event.AfterMCPExecution},
		},
		want: Verdict{Context: "one", UpdatedToolOutput: json.RawMessage(`{"r":1}`)},
	}, {
		name: "preCompact messages",
		ds:   []*engine.Decision{{Step: event.PreCompact, UserMessage: "compacting"}},
		want: Verdict{Notice: "compacting"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Merge(tc.ds)
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("Merge =\n %+v\nwant\n %+v", *got, tc.want)
			}
		})
	}
}

func TestRecheck(t *testing.T) {
	shell, err := Claude.Parse([]byte(claudeBash), "")
	if err != nil {
		t.Fatal(err)
	}
	got := shell.Recheck(&Verdict{UpdatedInput: map[string]any{"command": "rm -rf /"}})
	if len(got) != 1 || got[0].Step != event.BeforeShellExecution || got[0].Payload["command"] != "rm -rf /" {
		t.Fatalf("Recheck of a rewritten command = %+v, want beforeShellExecution of it", got)
	}
	if got[0].Payload["conversation_id"] != "s1" || got[0].Payload["cwd"] != "/repo" {
		t.Errorf("the recheck lost the common fields: %+v", got[0].Payload)
	}
	if got := shell.Recheck(&Verdict{UpdatedInput: map[string]any{"command": "git push"}}); got != nil {
		t.Errorf("Recheck of an unchanged command = %+v, want none", got)
	}
	if got := shell.Recheck(&Verdict{Permission: event.Deny, UpdatedInput: map[string]any{"command": "x"}}); got != nil {
		t.Errorf("Recheck of a denied call = %+v, want none", got)
	}

	read, err := OpenCode.Parse([]byte(opencodeRead), "")
	if err != nil {
		t.Fatal(err)
	}
	got = read.Recheck(&Verdict{UpdatedInput: map[string]any{"file_path": "b.txt"}})
	if len(got) != 1 || got[0].Step != event.BeforeReadFile || got[0].Payload["file_path"] != "/repo/b.txt" {
		t.Fatalf("Recheck of a rewritten path = %+v, want beforeReadFile of /repo/b.txt", got)
	}
	if _, ok := got[0].Payload["content"]; ok {
		t.Error("the recheck carries the old file's content")
	}

	prompt, _ := Claude.Parse([]byte(`{"hook_event_name":"UserPromptSubmit","prompt":"x"}`), "")
	if got := prompt.Recheck(&Verdict{UpdatedInput: map[string]any{"command": "x"}}); got != nil {
		t.Errorf("Recheck of a prompt = %+v", got)
	}
}

func TestLookup(t *testing.T) {
	want := []string{"claude", "gemini", "codex", "copilot", "opencode", "contract"}
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
	for _, n := range want {
		d, ok := Lookup(n)
		if !ok || d.Name != n || d.Title == "" {
			t.Errorf("Lookup(%q) = %+v, %v", n, d, ok)
		}
	}
	if _, ok := Lookup("cursor"); ok {
		t.Error("Lookup(cursor) found a dialect")
	}
}
