package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/llm"
	"github.com/agenthooks/agenthooks/llm/llmtest"
)

var providers = []string{llmtest.OpenAI, llmtest.Anthropic}

// fastRetry keeps retry tests short; the shape of the backoff is tested
// inside the package.
var fastRetry = llm.Retry{Base: 5 * time.Millisecond, Max: 20 * time.Millisecond}

func client(t *testing.T, provider, baseURL string, key llm.Secret) llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{Provider: provider, BaseURL: baseURL, APIKey: key, Retry: fastRetry})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func judge(t *testing.T, c llm.Client, timeout time.Duration, req llm.Request) (llm.Answer, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return c.Judge(ctx, req)
}

func TestJudgeVerdicts(t *testing.T) {
	for _, p := range providers {
		for _, tc := range []struct {
			verdict string
			ok      bool
			reason  string
		}{
			{`{"ok": true, "reason": "ls only lists files"}`, true, "ls only lists files"},
			{`{"ok": false, "reason": "rm -rf deletes the repository"}`, false, "rm -rf deletes the repository"},
		} {
			t.Run(p, func(t *testing.T) {
				srv := llmtest.New(t, p, llmtest.Reply{Verdict: tc.verdict})
				srv.Key = "sk-test-key-0123456789"
				c := client(t, p, srv.URL, "sk-test-key-0123456789")
				ans, err := judge(t, c, 5*time.Second, llm.Request{Prompt: "Is it safe? {\"command\":\"ls\"}", Model: "judge-1"})
				if err != nil {
					t.Fatal(err)
				}
				if ans.OK != tc.ok || ans.Reason != tc.reason || ans.Model != "judge-1" || ans.Attempts != 1 {
					t.Errorf("answer = %+v", ans)
				}
				var want bytes.Buffer
				json.Compact(&want, []byte(tc.verdict))
				if string(ans.Raw) != want.String() {
					t.Errorf("Raw = %s, want the compact verdict %s", ans.Raw, want.String())
				}
				calls := srv.Calls()
				if len(calls) != 1 {
					t.Fatalf("%d calls", len(calls))
				}
				call := calls[0]
				if call.Prompt != "Is it safe? {\"command\":\"ls\"}" || call.Model != "judge-1" || !strings.Contains(call.System, `"ok"`) {
					t.Errorf("call = model %q system %q prompt %q", call.Model, call.System, call.Prompt)
				}
				if p == llmtest.OpenAI {
					if got := call.Header.Get("Authorization"); got != "Bearer sk-test-key-0123456789" {
						t.Errorf("Authorization = %q", got)
					}
				} else if call.Header.Get("x-api-key") != "sk-test-key-0123456789" || call.Header.Get("Authorization") != "" {
					t.Errorf("x-api-key = %q, Authorization = %q", call.Header.Get("x-api-key"), call.Header.Get("Authorization"))
				}
			})
		}
	}
}

func TestJudgeDefaultModelAndNoKey(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := llmtest.New(t, p, llmtest.Reply{Verdict: `{"ok":true,"reason":""}`})
			c, err := llm.New(llm.Config{Provider: p, BaseURL: srv.URL, Model: "local-model"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := judge(t, c, 5*time.Second, llm.Request{Prompt: "x"}); err != nil {
				t.Fatal(err)
			}
			call := srv.Calls()[0]
			if call.Model != "local-model" {
				t.Errorf("model = %q", call.Model)
			}
			if call.Header.Get("Authorization") != "" || call.Header.Get("x-api-key") != "" {
				t.Errorf("a key header was sent without a key: %v", call.Header)
			}
		})
	}
}

func TestJudgeNotAVerdict(t *testing.T) {
	cases := map[string][]struct {
		name  string
		reply llmtest.Reply
		want  string
	}{
		llmtest.OpenAI: {
			{"prose", llmtest.Reply{Verdict: "Yes, this looks safe."}, "not JSON"},
			{"extra key", llmtest.Reply{Verdict: `{"ok":true,"reason":"","permission":"allow"}`}, `unexpected key "permission"`},
			{"ok as string", llmtest.Reply{Verdict: `{"ok":"true","reason":""}`}, `"ok" must be true or false`},
			{"empty", llmtest.Reply{Verdict: ""}, "empty"},
			{"refusal", llmtest.Reply{Refusal: "I can't help with that."}, "refused"},
			{"cut short", llmtest.Reply{Verdict: `{"ok":true,"rea`, StopReason: "length"}, "token limit"},
			{"no choices", llmtest.Reply{Body: `{"id":"chatcmpl-1","object":"chat.completion","choices":[]}`}, "no choices"},
			{"not JSON at all", llmtest.Reply{Body: `<html>gateway</html>`}, "not a chat completion"},
		},
		llmtest.Anthropic: {
			{"prose", llmtest.Reply{AsText: true, Verdict: "Sure! The command is safe."}, "not JSON"},
			{"wrong fields", llmtest.Reply{Verdict: `{"safe":true}`}, `unexpected key "safe"`},
			{"ok missing", llmtest.Reply{Verdict: `{"reason":"fine"}`}, `"ok" is missing`},
			{"cut short", llmtest.Reply{AsText: true, Verdict: `{"ok": tr`, StopReason: "max_tokens"}, "token limit"},
			{"refusal", llmtest.Reply{AsText: true, Verdict: "", StopReason: "refusal"}, "refused"},
			{"not a message", llmtest.Reply{Body: `{"completion":"yes"}`}, "not a message"},
		},
	}
	for _, p := range providers {
		for _, tc := range cases[p] {
			t.Run(p+"/"+tc.name, func(t *testing.T) {
				srv := llmtest.New(t, p, tc.reply)
				_, err := judge(t, client(t, p, srv.URL, ""), 5*time.Second, llm.Request{Prompt: "x"})
				var ae *llm.AnswerError
				if !errors.As(err, &ae) {
					t.Fatalf("err = %v (%T), want *llm.AnswerError", err, err)
				}
				if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `{"ok": boolean, "reason": string}`) {
					t.Errorf("err = %q, want it to contain %q", err, tc.want)
				}
				if n := len(srv.Calls()); n != 1 {
					t.Errorf("%d calls; a bad answer must not be retried", n)
				}
			})
		}
	}
}

// Servers that implement structured output as a function call, or
// Anthropic gateways that ignore tool_choice, still give a verdict when
// the JSON itself is exact.
func TestJudgeAlternativeCarriers(t *testing.T) {
	for p, reply := range map[string]llmtest.Reply{
		llmtest.OpenAI:    {AsToolCall: true, Verdict: `{"ok":false,"reason":"writes to /etc"}`},
		llmtest.Anthropic: {AsText: true, Verdict: `{"ok":false,"reason":"writes to /etc"}`},
	} {
		t.Run(p, func(t *testing.T) {
			srv := llmtest.New(t, p, reply)
			ans, err := judge(t, client(t, p, srv.URL, ""), 5*time.Second, llm.Request{Prompt: "x"})
			if err != nil || ans.OK || ans.Reason != "writes to /etc" {
				t.Fatalf("answer %+v, err %v", ans, err)
			}
		})
	}
}

func TestJudgeRetriesServerErrors(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := llmtest.New(t, p,
				llmtest.Reply{Status: 500},
				llmtest.Reply{Status: 529},
				llmtest.Reply{Verdict: `{"ok":true,"reason":"fine"}`})
			ans, err := judge(t, client(t, p, srv.URL, ""), 5*time.Second, llm.Request{Prompt: "x"})
			if err != nil {
				t.Fatal(err)
			}
			if !ans.OK || ans.Attempts != 3 || len(srv.Calls()) != 3 {
				t.Errorf("answer %+v after %d calls", ans, len(srv.Calls()))
			}
		})
	}
}

func TestJudgeHonoursRetryAfter(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := llmtest.New(t, p,
				llmtest.Reply{Status: 429, Header: map[string]string{"Retry-After": "1"}},
				llmtest.Reply{Verdict: `{"ok":true,"reason":"fine"}`})
			ans, err := judge(t, client(t, p, srv.URL, ""), 10*time.Second, llm.Request{Prompt: "x"})
			if err != nil || !ans.OK {
				t.Fatalf("answer %+v, err %v", ans, err)
			}
			calls := srv.Calls()
			if len(calls) != 2 {
				t.Fatalf("%d calls", len(calls))
			}
			// A lower bound only: the client must not come back before the
			// server said it could.
			if gap := calls[1].Time.Sub(calls[0].Time); gap < 990*time.Millisecond {
				t.Errorf("retried after %s, before the Retry-After of 1s", gap)
			}
		})
	}
}

func TestJudgeNeverRetriesPastTheDeadline(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := llmtest.New(t, p,
				llmtest.Reply{Status: 429, Header: map[string]string{"Retry-After": "5"}},
				llmtest.Reply{Verdict: `{"ok":true,"reason":"fine"}`})
			_, err := judge(t, client(t, p, srv.URL, ""), 2*time.Second, llm.Request{Prompt: "x"})
			var ae *llm.APIError
			// An APIError, not the deadline: the client gave up at once
			// instead of sleeping into the deadline.
			if !errors.As(err, &ae) || ae.Status != 429 || !strings.Contains(ae.GaveUp, "deadline") {
				t.Fatalf("err = %v, want the 429 with a note about the deadline", err)
			}
			if n := len(srv.Calls()); n != 1 {
				t.Errorf("%d calls, want 1", n)
			}
		})
	}
}

func TestJudgeRetryAfterTooLong(t *testing.T) {
	srv := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Status: 529, Header: map[string]string{"Retry-After": "3600"}})
	_, err := judge(t, client(t, llmtest.Anthropic, srv.URL, ""), 5*time.Second, llm.Request{Prompt: "x"})
	if err == nil || !strings.Contains(err.Error(), "retry after 1h0m0s") || !strings.Contains(err.Error(), "overloaded_error") {
		t.Fatalf("err = %v", err)
	}
}

func TestJudgeGivesUpAfterMaxAttempts(t *testing.T) {
	srv := llmtest.New(t, llmtest.OpenAI, llmtest.Reply{Status: 503})
	c, err := llm.New(llm.Config{Provider: llm.OpenAI, BaseURL: srv.URL, Retry: llm.Retry{MaxAttempts: 3, Base: time.Millisecond, Max: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = judge(t, c, 5*time.Second, llm.Request{Prompt: "x"})
	var ae *llm.APIError
	if !errors.As(err, &ae) || ae.Status != 503 || ae.Attempts != 3 || len(srv.Calls()) != 3 {
		t.Fatalf("err = %v after %d calls", err, len(srv.Calls()))
	}
}

func TestJudgeNoRetryOnClientErrors(t *testing.T) {
	for _, p := range providers {
		for _, status := range []int{400, 401, 403, 404} {
			t.Run(p+"/"+http.StatusText(status), func(t *testing.T) {
				srv := llmtest.New(t, p, llmtest.Reply{Status: status}, llmtest.Reply{Verdict: `{"ok":true,"reason":""}`})
				_, err := judge(t, client(t, p, srv.URL, ""), 5*time.Second, llm.Request{Prompt: "x"})
				var ae *llm.APIError
				if !errors.As(err, &ae) || ae.Status != status || ae.Retryable() {
					t.Fatalf("err = %v", err)
				}
				if n := len(srv.Calls()); n != 1 {
					t.Errorf("%d calls, want 1", n)
				}
			})
		}
	}
}

func TestJudgeHonoursShouldRetryFalse(t *testing.T) {
	srv := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Status: 500, Header: map[string]string{"X-Should-Retry": "false"}})
	_, err := judge(t, client(t, llmtest.Anthropic, srv.URL, ""), 5*time.Second, llm.Request{Prompt: "x"})
	if err == nil || len(srv.Calls()) != 1 {
		t.Fatalf("err %v after %d calls", err, len(srv.Calls()))
	}
}

func TestJudgeWrongKey401(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := llmtest.New(t, p, llmtest.Reply{Verdict: `{"ok":true,"reason":""}`})
			srv.Key = "the-right-key-000000"
			_, err := judge(t, client(t, p, srv.URL, "the-wrong-key-111111"), 5*time.Second, llm.Request{Prompt: "x"})
			var ae *llm.APIError
			if !errors.As(err, &ae) || ae.Status != 401 || !strings.Contains(err.Error(), "AGENTHOOKS_LLM_API_KEY_ENV") {
				t.Fatalf("err = %v", err)
			}
			if len(srv.Calls()) != 1 {
				t.Errorf("a 401 was retried: %d calls", len(srv.Calls()))
			}
		})
	}
}

// The key must not reach an error, whatever the server echoes or the model
// repeats.
func TestJudgeKeepsKeyOutOfErrors(t *testing.T) {
	const key = "sk-live-SECRET-0123456789abcdef"
	for _, p := range providers {
		for name, reply := range map[string]llmtest.Reply{
			"echoed by a 500":   {Status: 500, ErrorMessage: "upstream rejected key " + key},
			"echoed raw body":   {Status: 502, Body: "bad gateway for " + key + strings.Repeat(" pad", 100)},
			"repeated as reply": {AsText: true, Verdict: "your key is " + key},
		} {
			t.Run(p+"/"+name, func(t *testing.T) {
				srv := llmtest.New(t, p, reply)
				_, err := judge(t, client(t, p, srv.URL, key), 5*time.Second, llm.Request{Prompt: "x"})
				if err == nil {
					t.Fatal("no error")
				}
				if strings.Contains(err.Error(), key) || strings.Contains(err.Error(), key[:16]) {
					t.Errorf("the key shows in %q", err)
				}
			})
		}
		t.Run(p+"/echoed in a 401", func(t *testing.T) {
			srv := llmtest.New(t, p, llmtest.Reply{Verdict: `{"ok":true,"reason":""}`})
			srv.Key, srv.EchoKey = "another-key-0000000", true
			_, err := judge(t, client(t, p, srv.URL, key), 5*time.Second, llm.Request{Prompt: "x"})
			if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "[redacted]") {
				t.Errorf("err = %v", err)
			}
		})
	}
}

// A valid verdict that repeats the key, plainly or JSON-escaped, keeps
// it out of the reason the agent is shown and the raw answer the log keeps.
func TestJudgeKeepsKeyOutOfVerdicts(t *testing.T) {
	const key = "plainlocalkey0123456789"
	for _, p := range providers {
		for name, verdict := range map[string]string{
			"plain":   `{"ok":false,"reason":"your key is ` + key + ` ok"}`,
			"escaped": `{"ok":false,"reason":"your key is \u0070lainlocalkey0123456789"}`,
			"extra":   `{"ok":true,"reason":"fine","note":"` + key + `"}`,
		} {
			t.Run(p+"/"+name, func(t *testing.T) {
				srv := llmtest.New(t, p, llmtest.Reply{Verdict: verdict})
				ans, err := judge(t, client(t, p, srv.URL, key), 5*time.Second, llm.Request{Prompt: "x"})
				if err != nil {
					if strings.Contains(err.Error(), key) {
						t.Errorf("the key shows in %q", err)
					}
					return
				}
				if strings.Contains(ans.Reason, key) || strings.Contains(string(ans.Raw), key) || strings.Contains(string(ans.Raw), "u0070lain") {
					t.Errorf("the key shows in the verdict: reason %q, raw %s", ans.Reason, ans.Raw)
				}
			})
		}
	}
}

func TestJudgeTimeout(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := llmtest.New(t, p, llmtest.Reply{Delay: time.Minute, Verdict: `{"ok":true,"reason":""}`})
			_, err := judge(t, client(t, p, srv.URL, ""), 200*time.Millisecond, llm.Request{Prompt: "x"})
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want one wrapping context.DeadlineExceeded", err)
			}
		})
	}
}

func TestJudgeConnectionRefusedIsRetried(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, err := llm.New(llm.Config{Provider: llm.OpenAI, BaseURL: "http://" + addr + "/v1", Retry: llm.Retry{MaxAttempts: 2, Base: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = judge(t, c, 5*time.Second, llm.Request{Prompt: "x"})
	var ae *llm.APIError
	var ans *llm.AnswerError
	if err == nil || errors.As(err, &ae) || errors.As(err, &ans) || !strings.Contains(err.Error(), "after 2 attempts") || !strings.Contains(err.Error(), addr) {
		t.Fatalf("err = %v", err)
	}
}

func TestJudgeMissingKeyForPublicEndpoint(t *testing.T) {
	for p, env := range map[string]string{llm.OpenAI: "OPENAI_API_KEY", llm.Anthropic: "ANTHROPIC_API_KEY"} {
		c, err := llm.New(llm.Config{Provider: p})
		if err != nil {
			t.Fatal(err)
		}
		_, err = judge(t, c, 5*time.Second, llm.Request{Prompt: "x"})
		if err == nil || !strings.Contains(err.Error(), env) || !strings.Contains(err.Error(), "AGENTHOOKS_LLM_BASE_URL") {
			t.Errorf("%s: err = %v", p, err)
		}
	}
}

// A redirect must not carry the key to another host.
func TestJudgeRefusesRedirects(t *testing.T) {
	var leaked atomic.Value
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("x-api-key") + r.Header.Get("Authorization"))
	}))
	defer target.Close()
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer redirector.Close()
	for _, p := range providers {
		_, err := judge(t, client(t, p, redirector.URL, "sk-redirect-secret-0000"), 5*time.Second, llm.Request{Prompt: "x"})
		if err == nil || !strings.Contains(err.Error(), "redirect") {
			t.Errorf("%s: err = %v", p, err)
		}
	}
	if v := leaked.Load(); v != nil {
		t.Errorf("the redirect target was reached, with key headers %q", v)
	}
}
