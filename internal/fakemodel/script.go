// Package fakemodel has fake model servers for end-to-end tests of real
// coding agents: each speaks the wire protocol an agent uses (the Gemini
// API for Gemini CLI, OpenAI chat completions for OpenCode and Copilot
// CLI, the OpenAI Responses API for Codex, Anthropic's Messages API for
// Claude Code), plays a
// scripted conversation and records every request, so a test can check
// what the agent sent back to the model (a tool result, a hook's reason).
//
// The servers listen on 127.0.0.1 only.
package fakemodel

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Step is one model turn: a call of Tool with Args, or, when Tool is
// empty, the final answer Text.
type Step struct {
	Tool string
	Args map[string]any
	Text string
}

// Call is a step that calls tool with args.
func Call(tool string, args map[string]any) Step { return Step{Tool: tool, Args: args} }

// Say is a step that answers text and ends the agent's turn.
func Say(text string) Step { return Step{Text: text} }

// Script is a conversation. The model's reply to a request is the step
// numbered by how many tool results the request already carries: the
// first request gets Steps[0], the request that carries the first tool
// result gets Steps[1], and so on. Choosing by the conversation rather
// than by a request counter keeps the script right when an agent retries
// a request or makes extra ones. Past the end, the reply is Done.
type Script struct {
	Steps []Step
	// Done is the answer once the steps are used up ("Done." if empty).
	Done string
}

func (s Script) step(results int) Step {
	if results < len(s.Steps) {
		return s.Steps[results]
	}
	if s.Done == "" {
		return Say("Done.")
	}
	return Say(s.Done)
}

// Request is a request a fake server received.
type Request struct {
	Method string
	Path   string // with the query
	Body   []byte
}

// recorder keeps every request and serves them to the handler.
type recorder struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []Request
}

func (r *recorder) start(h func(w http.ResponseWriter, req *http.Request, body []byte)) {
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(req.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body := buf.Bytes()
		r.mu.Lock()
		r.reqs = append(r.reqs, Request{Method: req.Method, Path: req.URL.RequestURI(), Body: body})
		r.mu.Unlock()
		h(w, req, body)
	}))
}

// URL is the server's base URL, http://127.0.0.1:PORT.
func (r *recorder) URL() string { return r.srv.URL }

// Close shuts the server down.
func (r *recorder) Close() { r.srv.Close() }

// Requests returns a copy of the requests received so far, in order.
func (r *recorder) Requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.reqs...)
}

// Find returns the requests whose path contains path and whose body
// contains text.
func (r *recorder) Find(path, text string) []Request {
	var out []Request
	for _, q := range r.Requests() {
		if strings.Contains(q.Path, path) && bytes.Contains(q.Body, []byte(text)) {
			out = append(out, q)
		}
	}
	return out
}

// sse writes one server-sent event with v as JSON data.
func sse(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	_, _ = w.Write([]byte("data: "))
	_, _ = w.Write(b)
	_, _ = w.Write([]byte("\n\n"))
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// sseHeaders starts an event stream.
func sseHeaders(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
