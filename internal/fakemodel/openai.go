package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// OpenAI is a fake OpenAI-compatible chat completions API, as agents
// configured with a custom provider use it (OpenCode's
// @ai-sdk/openai-compatible with baseURL http://127.0.0.1:PORT/v1). It
// answers
//
//   - POST …/chat/completions, streamed (SSE, "stream": true) or not, with
//     the script's step when the request offers tools, and a short title
//     otherwise (agents ask a small model for a session title);
//   - GET …/models with the one model "fake";
//   - anything else with a 404 in the API's error shape.
type OpenAI struct {
	recorder
	script Script
	ids    atomic.Int64
}

// NewOpenAI starts a fake OpenAI-compatible API that plays script. Close
// it when done.
func NewOpenAI(script Script) *OpenAI {
	o := &OpenAI{script: script}
	o.start(o.serve)
	return o
}

type openaiRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []json.RawMessage `json:"tools"`
}

// ToolResults returns the content of the "tool" messages the agent sent
// (a string, or the JSON of the content parts), in the order first seen
// (a result sent again with a later request is listed once).
func (o *OpenAI) ToolResults() []string {
	var out []string
	seen := map[string]bool{}
	for _, q := range o.Requests() {
		var r openaiRequest
		if json.Unmarshal(q.Body, &r) != nil {
			continue
		}
		for _, m := range r.Messages {
			if m.Role != "tool" {
				continue
			}
			var s string
			if json.Unmarshal(m.Content, &s) != nil {
				s = string(m.Content)
			}
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

func (o *OpenAI) serve(w http.ResponseWriter, req *http.Request, body []byte) {
	switch {
	case req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/models"):
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": "fake", "object": "model", "created": 0, "owned_by": "agenttest"},
		}})
		return
	case req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/chat/completions"):
	default:
		openaiError(w, http.StatusNotFound, "the fake OpenAI API has no "+req.Method+" "+req.URL.Path)
		return
	}
	var r openaiRequest
	if err := json.Unmarshal(body, &r); err != nil {
		openaiError(w, http.StatusBadRequest, "request body: "+err.Error())
		return
	}
	step := Say("Fake session")
	if len(r.Tools) > 0 {
		results := 0
		for _, m := range r.Messages {
			if m.Role == "tool" {
				results++
			}
		}
		step = o.script.step(results)
	}
	n := o.ids.Add(1)
	id := fmt.Sprintf("chatcmpl-%d", n)
	var toolCalls []any
	finish := "stop"
	if step.Tool != "" {
		args, _ := json.Marshal(step.Args)
		toolCalls = []any{map[string]any{
			"index": 0, "id": fmt.Sprintf("call_%d", n), "type": "function",
			"function": map[string]any{"name": step.Tool, "arguments": string(args)},
		}}
		finish = "tool_calls"
	}
	usage := map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
	created := time.Now().Unix()
	if !r.Stream {
		msg := map[string]any{"role": "assistant", "content": step.Text}
		if toolCalls != nil {
			msg["content"] = nil
			msg["tool_calls"] = toolCalls
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "object": "chat.completion", "created": created, "model": r.Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   usage,
		})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": r.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	sseHeaders(w)
	if toolCalls != nil {
		sse(w, chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": toolCalls}, nil))
	} else {
		// The text in two chunks, as a real stream sends it.
		half := len(step.Text) / 2
		sse(w, chunk(map[string]any{"role": "assistant", "content": step.Text[:half]}, nil))
		sse(w, chunk(map[string]any{"content": step.Text[half:]}, nil))
	}
	sse(w, chunk(map[string]any{}, finish))
	sse(w, map[string]any{
		"id": id, "object": "chat.completion.chunk", "created": created, "model": r.Model,
		"choices": []any{}, "usage": usage,
	})
	_, _ = w.Write([]byte("data: [DONE]\n\n"))
}

func openaiError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "code": nil}})
}
