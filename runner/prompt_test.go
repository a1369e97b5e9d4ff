package runner_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/llm"
	"github.com/agenthooks/agenthooks/llm/llmtest"
	"github.com/agenthooks/agenthooks/runner"
)

var providers = []string{llmtest.OpenAI, llmtest.Anthropic}

// promptRunner is a runner.Prompt talking to srv over HTTP.
func promptRunner(t *testing.T, srv *llmtest.Server, key llm.Secret) runner.Prompt {
	t.Helper()
	c, err := llm.New(llm.Config{Provider: srv.Provider, BaseURL: srv.URL, APIKey: key,
		Retry: llm.Retry{Base: 5 * time.Millisecond, Max: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return runner.Prompt{Client: c}
}

func promptRequest(step event.Step, prompt, payload string) runner.Request {
	return runner.Request{
		Hook:    &config.Hook{Step: step, Type: config.TypePrompt, Prompt: prompt},
		Step:    step,
		Payload: []byte(payload),
		Timeout: 5 * time.Second,
	}
}

func TestPromptArguments(t *testing.T) {
	const payload = `{"command":"rm -rf /","cwd":"/tmp","hook_event_name":"beforeShellExecution"}`
	for _, p := range providers {
		for _, tc := range []struct{ name, prompt, want string }{
			{"replaced", "Input: $ARGUMENTS\nAgain: $ARGUMENTS\nSafe?",
				"Input: " + payload + "\nAgain: " + payload + "\nSafe?"},
			{"appended", "Does this command look safe to execute?\n",
				"Does this command look safe to execute?\n\nHook input (JSON):\n" + payload},
		} {
			t.Run(p+"/"+tc.name, func(t *testing.T) {
				srv := llmtest.New(t, p, llmtest.Reply{Verdict: `{"ok":true,"reason":"fine"}`})
				res := promptRunner(t, srv, "").Run(context.Background(), promptRequest(event.BeforeShellExecution, tc.prompt, payload+"\n"))
				if res.Failure != runner.OK {
					t.Fatalf("failure %s: %s", res.Failure, res.Detail)
				}
				if got := srv.Calls()[0].Prompt; got != tc.want {
					t.Errorf("prompt sent:\n%s\nwant:\n%s", got, tc.want)
				}
			})
		}
	}
}

func TestPromptHookModelOverrides(t *testing.T) {
	for _, p := range providers {
		srv := llmtest.New(t, p, llmtest.Reply{Verdict: `{"ok":true,"reason":""}`})
		req := promptRequest(event.BeforeShellExecution, "ok?", `{}`)
		req.Hook.Model = "tiny-judge"
		if res := promptRunner(t, srv, "").Run(context.Background(), req); res.Failure != runner.OK {
			t.Fatalf("%s: %s", res.Failure, res.Detail)
		}
		if m := srv.Calls()[0].Model; m != "tiny-judge" {
			t.Errorf("%s: model %q, want the hook's", p, m)
		}
	}
}

func TestPromptVerdictPerStep(t *testing.T) {
	const reason = "the command deletes files"
	type want struct {
		perm                              event.Permission
		cont                              *bool
		user, agent, followup, additional string
	}
	yes, no := true, false
	for _, tc := range []struct {
		step    event.Step
		ok, not want
	}{
		{event.BeforeShellExecution, want{perm: event.Allow}, want{perm: event.Deny, user: reason, agent: reason}},
		{event.PreToolUse, want{perm: event.Allow}, want{perm: event.Deny, user: reason, agent: reason}},
		{event.SubagentStart, want{perm: event.Allow}, want{perm: event.Deny, user: reason, agent: reason}},
		// beforeReadFile has no agent_message, beforeTabFileRead no message at all.
		{event.BeforeReadFile, want{perm: event.Allow}, want{perm: event.Deny, user: reason}},
		{event.BeforeTabFileRead, want{perm: event.Allow}, want{perm: event.Deny}},
		{event.BeforeSubmitPrompt, want{cont: &yes}, want{cont: &no, user: reason}},
		{event.Stop, want{}, want{followup: reason}},
		{event.SubagentStop, want{}, want{followup: reason}},
		{event.SessionStart, want{}, want{additional: reason}},
		{event.PostToolUse, want{}, want{additional: reason}},
		{event.PreCompact, want{}, want{user: reason}},
		{event.AfterFileEdit, want{}, want{}},
	} {
		for _, ok := range []bool{true, false} {
			verdict, w := `{"ok":true,"reason":"`+reason+`"}`, tc.ok
			if !ok {
				verdict, w = `{"ok":false,"reason":"`+reason+`"}`, tc.not
			}
			srv := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Verdict: verdict})
			res := promptRunner(t, srv, "").Run(context.Background(), promptRequest(tc.step, "ok?", `{}`))
			if res.Failure != runner.OK || res.Response == nil {
				t.Fatalf("%s ok=%v: failure %s: %s", tc.step, ok, res.Failure, res.Detail)
			}
			r := res.Response
			got := want{perm: r.Permission, cont: r.Continue, user: r.UserMessage, agent: r.AgentMessage,
				followup: r.FollowupMessage, additional: r.AdditionalContext}
			if got.perm != w.perm || (got.cont == nil) != (w.cont == nil) || (got.cont != nil && *got.cont != *w.cont) ||
				got.user != w.user || got.agent != w.agent || got.followup != w.followup || got.additional != w.additional {
				t.Errorf("%s ok=%v: response %+v, want %+v", tc.step, ok, got, w)
			}
			if string(r.Raw) != verdict {
				t.Errorf("%s ok=%v: Raw = %s, want the model's verdict %s", tc.step, ok, r.Raw, verdict)
			}
		}
	}
}

func TestPromptEmptyReasonStillExplains(t *testing.T) {
	srv := llmtest.New(t, llmtest.OpenAI, llmtest.Reply{Verdict: `{"ok":false,"reason":""}`})
	res := promptRunner(t, srv, "").Run(context.Background(), promptRequest(event.BeforeShellExecution, "ok?", `{}`))
	if res.Response == nil || res.Response.Permission != event.Deny || res.Response.UserMessage == "" {
		t.Fatalf("result %+v", res)
	}
}

func TestPromptFailures(t *testing.T) {
	const key = "sk-ant-api03-SECRETSECRETSECRET-0000"
	for _, p := range providers {
		for _, tc := range []struct {
			name    string
			replies []llmtest.Reply
			timeout time.Duration
			echoKey bool
			want    runner.Failure
			detail  string
		}{
			{name: "malformed", replies: []llmtest.Reply{{AsText: true, Verdict: "Looks safe to me!"}},
				want: runner.InvalidOutput, detail: "did not answer with"},
			{name: "extra field", replies: []llmtest.Reply{{Verdict: `{"ok":true,"reason":"","permission":"allow"}`}},
				want: runner.InvalidOutput, detail: `unexpected key "permission"`},
			{name: "slow", replies: []llmtest.Reply{{Delay: time.Minute, Verdict: `{"ok":true,"reason":""}`}}, timeout: 300 * time.Millisecond,
				want: runner.Timeout, detail: "did not answer within 300ms"},
			{name: "server down", replies: []llmtest.Reply{{Status: 503}},
				want: runner.ModelError, detail: "HTTP 503"},
			{name: "wrong key", replies: []llmtest.Reply{{Verdict: `{"ok":true,"reason":""}`}}, echoKey: true,
				want: runner.ModelError, detail: "HTTP 401"},
			{name: "key repeated by the model", replies: []llmtest.Reply{{AsText: true, Verdict: "the key is " + key}},
				want: runner.InvalidOutput, detail: "[redacted]"},
		} {
			t.Run(p+"/"+tc.name, func(t *testing.T) {
				srv := llmtest.New(t, p, tc.replies...)
				if tc.echoKey {
					srv.Key, srv.EchoKey = "some-other-key-000", true
				}
				req := promptRequest(event.BeforeShellExecution, "Is $ARGUMENTS safe?", `{"command":"ls"}`)
				if tc.timeout > 0 {
					req.Timeout = tc.timeout
				}
				res := promptRunner(t, srv, key).Run(context.Background(), req)
				if res.Failure != tc.want || res.Response != nil || res.ExitCode != -1 {
					t.Fatalf("failure %q (exit %d, response %v): %s; want %q", res.Failure, res.ExitCode, res.Response, res.Detail, tc.want)
				}
				if !strings.Contains(res.Detail, tc.detail) {
					t.Errorf("detail %q does not contain %q", res.Detail, tc.detail)
				}
				if strings.Contains(res.Detail, key) || strings.Contains(res.Detail, "SECRETSECRET") {
					t.Errorf("the API key shows in the detail: %q", res.Detail)
				}
				if res.Duration <= 0 {
					t.Errorf("duration %s", res.Duration)
				}
			})
		}
	}
}

func TestPromptCanceledByCaller(t *testing.T) {
	srv := llmtest.New(t, llmtest.OpenAI, llmtest.Reply{Delay: time.Minute, Verdict: `{"ok":true,"reason":""}`})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancel once the request is in flight (or after 5 s at most).
		for i := 0; i < 1000 && len(srv.Calls()) == 0; i++ {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	defer cancel()
	res := promptRunner(t, srv, "").Run(ctx, promptRequest(event.Stop, "done?", `{}`))
	if res.Failure != runner.Canceled {
		t.Fatalf("failure %q: %s", res.Failure, res.Detail)
	}
}

func TestPromptInputTooLarge(t *testing.T) {
	srv := llmtest.New(t, llmtest.OpenAI, llmtest.Reply{Verdict: `{"ok":true,"reason":""}`})
	pr := promptRunner(t, srv, "")
	pr.MaxInput = 64
	res := pr.Run(context.Background(), promptRequest(event.BeforeReadFile, "secret?", `{"content":"`+strings.Repeat("a", 100)+`"}`))
	if res.Failure != runner.ModelError || !strings.Contains(res.Detail, "not asked") {
		t.Fatalf("failure %q: %s", res.Failure, res.Detail)
	}
	if n := len(srv.Calls()); n != 0 {
		t.Errorf("the model was asked %d times", n)
	}
}

func TestPromptWithoutClient(t *testing.T) {
	res := runner.Prompt{}.Run(context.Background(), promptRequest(event.Stop, "done?", `{}`))
	if res.Failure != runner.ModelError || !strings.Contains(res.Detail, "no model client") {
		t.Fatalf("failure %q: %s", res.Failure, res.Detail)
	}
}
