package runner_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/llm/llmtest"
	"github.com/agenthooks/agenthooks/runner"
)

// loadEngine writes hooks as the user hooks.json of a temporary HOME and
// loads the real engine with the prompt runner talking to srv.
func loadEngine(t *testing.T, srv *llmtest.Server, hooks map[event.Step][]map[string]any) *engine.Engine {
	t.Helper()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	file := filepath.Join(home, ".cursor", "hooks.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(map[string]any{"version": 1, "hooks": hooks})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.Load(engine.Options{
		Locations: config.Locations{Home: home, EnterpriseFile: filepath.Join(dir, "etc", "hooks.json")},
		Runners:   map[string]runner.Runner{config.TypePrompt: promptRunner(t, srv, "sk-engine-test-key-0000")},
		Env:       []string{},
	})
	if err != nil {
		t.Fatal(err)
	}
	for step := range hooks {
		if !eng.HasHooks(step) {
			t.Fatalf("the engine loaded no %s hook from %s", step, data)
		}
	}
	return eng
}

// TestPromptHooksThroughEngine runs a beforeShellExecution prompt hook
// through engine.Load and Run against each provider's wire protocol, fail
// open and fail closed, and checks the merged decision.
func TestPromptHooksThroughEngine(t *testing.T) {
	const reason = "git push publishes commits"
	ok := llmtest.Reply{Verdict: `{"ok":true,"reason":"read-only"}`}
	for _, sc := range []struct {
		name    string
		replies []llmtest.Reply
		timeout float64 // the hook's "timeout", seconds
		calls   int
		failure runner.Failure
		// merged permission without and with failClosed
		open, closed event.Permission
	}{
		{"ok", []llmtest.Reply{ok}, 5, 1, runner.OK, event.Allow, event.Allow},
		{"not ok", []llmtest.Reply{{Verdict: `{"ok":false,"reason":"` + reason + `"}`}}, 5, 1, runner.OK, event.Deny, event.Deny},
		{"not ok, in Claude Code's form", []llmtest.Reply{{Verdict: `{"decision":"block","reason":"` + reason + `"}`}}, 5, 1, runner.OK, event.Deny, event.Deny},
		{"ok, in Claude Code's form", []llmtest.Reply{{Verdict: `{"decision":"approve","reason":"read-only"}`}}, 5, 1, runner.OK, event.Allow, event.Allow},
		{"malformed", []llmtest.Reply{{AsText: true, Verdict: "It is read-only, go ahead."}}, 5, 1, runner.InvalidOutput, event.NoOpinion, event.Deny},
		{"slow", []llmtest.Reply{{Delay: time.Minute, Verdict: ok.Verdict}}, 0.3, 1, runner.Timeout, event.NoOpinion, event.Deny},
		{"500 then ok", []llmtest.Reply{{Status: 500}, ok}, 5, 2, runner.OK, event.Allow, event.Allow},
		{"429 with Retry-After then ok", []llmtest.Reply{{Status: 429, Header: map[string]string{"Retry-After": "1"}}, ok}, 5, 2, runner.OK, event.Allow, event.Allow},
		{"401", []llmtest.Reply{{Status: 401}, ok}, 5, 1, runner.ModelError, event.NoOpinion, event.Deny},
	} {
		for _, p := range providers {
			for _, failClosed := range []bool{false, true} {
				name := p + "/" + sc.name + "/failOpen"
				want := sc.open
				if failClosed {
					name, want = p+"/"+sc.name+"/failClosed", sc.closed
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					srv := llmtest.New(t, p, sc.replies...)
					eng := loadEngine(t, srv, map[event.Step][]map[string]any{
						event.BeforeShellExecution: {{
							"type": "prompt", "prompt": "Only allow read-only commands: $ARGUMENTS",
							"model": "judge-model", "timeout": sc.timeout, "failClosed": failClosed,
						}},
					})
					d, err := eng.Run(context.Background(), event.BeforeShellExecution,
						map[string]any{"command": "git push origin main", "cwd": "/work", "sandbox": false})
					if err != nil {
						t.Fatal(err)
					}
					if d.Permission != want {
						t.Errorf("merged permission %q, want %q (hook: %s %s)", d.Permission, want, d.Hooks[0].Result.Failure, d.Hooks[0].Result.Detail)
					}
					if len(d.Hooks) != 1 || d.Hooks[0].Result.Failure != sc.failure {
						t.Fatalf("hooks %+v, want one with failure %q", d.Hooks, sc.failure)
					}
					calls := srv.Calls()
					if len(calls) != sc.calls {
						t.Errorf("%d requests, want %d", len(calls), sc.calls)
					}
					if !strings.Contains(calls[0].Prompt, `"command":"git push origin main"`) || calls[0].Model != "judge-model" {
						t.Errorf("request model %q prompt %q", calls[0].Model, calls[0].Prompt)
					}
					switch {
					case strings.HasPrefix(sc.name, "not ok") && !strings.Contains(d.UserMessage, reason):
						t.Errorf("user message %q lacks the model's reason", d.UserMessage)
					case want == event.Deny && sc.failure != runner.OK && !strings.Contains(d.UserMessage, string(sc.failure)):
						t.Errorf("fail-closed message %q does not name the failure", d.UserMessage)
					}
					if want == event.Deny && !strings.Contains(d.ModelMessage, "Do not attempt to work around") {
						t.Errorf("model message %q", d.ModelMessage)
					}
					if strings.Contains(d.UserMessage+d.AgentMessage+d.Hooks[0].Result.Detail, "sk-engine-test-key") {
						t.Error("the API key reached the decision")
					}
				})
			}
		}
	}
}

// Prompt hooks on the other kinds of steps: a blocked prompt submission, a
// stop that continues with the reason, and a prompt hook merged with a
// command hook's allow.
func TestPromptHooksOtherStepsThroughEngine(t *testing.T) {
	no := llmtest.Reply{Verdict: `{"ok":false,"reason":"the tests were not run"}`}
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := llmtest.New(t, p, no)
			eng := loadEngine(t, srv, map[event.Step][]map[string]any{
				event.BeforeSubmitPrompt: {{"type": "prompt", "prompt": "Is this prompt free of secrets?"}},
				event.Stop:               {{"type": "prompt", "prompt": "Did the agent run the tests? $ARGUMENTS"}},
				event.BeforeReadFile: {
					{"command": "echo '{\"permission\":\"allow\"}'"},
					{"type": "prompt", "prompt": "Is this file free of secrets?"},
				},
			})
			ctx := context.Background()
			d, err := eng.Run(ctx, event.BeforeSubmitPrompt, map[string]any{"prompt": "deploy with key AKIA…", "attachments": []any{}})
			if err != nil {
				t.Fatal(err)
			}
			if d.Continue == nil || *d.Continue || !strings.Contains(d.UserMessage, "the tests were not run") {
				t.Errorf("beforeSubmitPrompt: continue %v, user message %q", d.Continue, d.UserMessage)
			}
			d, err = eng.Run(ctx, event.Stop, map[string]any{"status": "completed", "loop_count": 0, "conversation_id": "c1"})
			if err != nil {
				t.Fatal(err)
			}
			if d.FollowupMessage != "the tests were not run" {
				t.Errorf("stop: follow-up %q", d.FollowupMessage)
			}
			d, err = eng.Run(ctx, event.BeforeReadFile, map[string]any{"file_path": "/w/.env", "content": "TOKEN=1", "attachments": []any{}})
			if err != nil {
				t.Fatal(err)
			}
			if d.Permission != event.Deny || len(d.Hooks) != 2 {
				t.Errorf("beforeReadFile: %q from %d hooks, want the prompt hook's deny over the command's allow", d.Permission, len(d.Hooks))
			}
		})
	}
}
