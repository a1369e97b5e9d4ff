// Package llmtest runs fake model APIs on 127.0.0.1 for tests: an
// OpenAI-compatible chat completions endpoint and an Anthropic Messages
// endpoint that check each request the way the real APIs would (method,
// path, headers, body shape) and answer with bodies shaped exactly as the
// real APIs answer, scripted per call. Prompt hooks can so be tested end to
// end, through real HTTP, without a network or a model.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Providers, as llm spells them.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
)

// Reply scripts one answer of the server.
type Reply struct {
	// Status is the HTTP status; zero means 200.
	Status int
	// Header is added to the response (e.g. "Retry-After": "1").
	Header map[string]string
	// Verdict is what the model says: OpenAI's message content, or the
	// input of Anthropic's tool_use block (which must then be a JSON
	// object, as the real API guarantees).
	Verdict string
	// AsText answers Anthropic with a text block instead of a tool call.
	AsText bool
	// AsToolCall answers OpenAI with one function call carrying Verdict
	// as its arguments, and null content.
	AsToolCall bool
	// StopReason overrides finish_reason (OpenAI) or stop_reason
	// (Anthropic), e.g. "length" or "max_tokens".
	StopReason string
	// Refusal sets OpenAI's message.refusal (content becomes null).
	Refusal string
	// Body, when set, is sent verbatim instead of a generated body.
	Body string
	// ErrorType and ErrorMessage fill the provider's error object when
	// Status is not 200; defaults depend on the status.
	ErrorType, ErrorMessage string
	// Delay holds the answer back this long, or until the client gives up.
	Delay time.Duration
}

// Call is one request the server received.
type Call struct {
	Header http.Header
	Body   []byte
	// Model, System and Prompt are read from the body: the system prompt
	// (Anthropic's "system", OpenAI's system message) and the user message.
	Model, System, Prompt string
	// Time is when the request arrived.
	Time time.Time
}

// Server is one fake API. Configure a client with its URL.
type Server struct {
	// URL is the base URL a client is configured with: it ends in /v1 for
	// OpenAI, as OpenAI-compatible servers document, and not for Anthropic.
	URL      string
	Provider string
	// Key, when set, must be presented (Bearer or x-api-key) or the
	// server answers 401 as the real API does.
	Key string
	// EchoKey puts the presented key in 401 messages, as some servers do,
	// to test that clients keep it out of their errors.
	EchoKey bool

	t       testing.TB
	srv     *httptest.Server
	mu      sync.Mutex
	replies []Reply
	calls   []Call
}

// New starts a server for provider ("openai" or "anthropic") that gives
// replies in order, repeating the last one; it is closed when the test
// ends.
func New(t testing.TB, provider string, replies ...Reply) *Server {
	t.Helper()
	if provider != OpenAI && provider != Anthropic {
		t.Fatalf("llmtest: unknown provider %q", provider)
	}
	if len(replies) == 0 {
		t.Fatalf("llmtest: no replies scripted")
	}
	s := &Server{Provider: provider, t: t, replies: replies}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	s.URL = s.srv.URL
	if provider == OpenAI {
		s.URL += "/v1"
	}
	return s
}

// Calls returns the requests received so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// next records the call and returns the reply for it.
func (s *Server) next(c Call) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
	r := s.replies[0]
	if len(s.replies) > 1 {
		s.replies = s.replies[1:]
	}
	return r
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	var call Call
	var problem, key string
	if s.Provider == OpenAI {
		call, problem = checkOpenAI(r, body)
		key = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	} else {
		call, problem = checkAnthropic(r, body)
		key = r.Header.Get("x-api-key")
	}
	call.Header, call.Body, call.Time = r.Header.Clone(), body, time.Now()
	if problem != "" {
		s.t.Errorf("llmtest: %s request does not follow the protocol: %s\nbody: %s", s.Provider, problem, body)
		s.writeError(w, http.StatusBadRequest, "invalid_request_error", problem)
		return
	}
	if s.Key != "" && key != s.Key {
		msg := "invalid x-api-key"
		if s.Provider == OpenAI {
			msg = "Incorrect API key provided."
		}
		if s.EchoKey {
			msg = fmt.Sprintf("Incorrect API key provided: %s. You can find your API key in your account settings.", key)
		}
		s.next(call)
		s.writeError(w, http.StatusUnauthorized, "", msg)
		return
	}
	reply := s.next(call)
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	switch {
	case reply.Body != "":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, reply.Body)
	case status != http.StatusOK:
		s.writeError(w, status, reply.ErrorType, reply.ErrorMessage)
	case s.Provider == OpenAI:
		writeJSON(w, status, openAIAnswer(call.Model, reply))
	default:
		writeJSON(w, status, s.anthropicAnswer(call.Model, reply))
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeError sends the provider's error object.
func (s *Server) writeError(w http.ResponseWriter, status int, typ, msg string) {
	if s.Provider == OpenAI {
		code := any(nil)
		if typ == "" {
			typ, code = openAIErrorType(status)
		}
		if msg == "" {
			msg = http.StatusText(status)
		}
		writeJSON(w, status, map[string]any{"error": map[string]any{
			"message": msg, "type": typ, "param": nil, "code": code,
		}})
		return
	}
	if typ == "" {
		typ = anthropicErrorType(status)
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	writeJSON(w, status, map[string]any{
		"type":       "error",
		"error":      map[string]any{"type": typ, "message": msg},
		"request_id": "req_011CTestRequest0000000000",
	})
}

func openAIErrorType(status int) (string, any) {
	switch status {
	case 401:
		return "invalid_request_error", "invalid_api_key"
	case 429:
		return "requests", "rate_limit_exceeded"
	case 400, 404:
		return "invalid_request_error", nil
	}
	return "server_error", nil
}

func anthropicErrorType(status int) string {
	switch status {
	case 400:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	return "api_error"
}
