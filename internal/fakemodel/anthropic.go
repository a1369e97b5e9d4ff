package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

// Anthropic is a fake Anthropic Messages API, as Claude Code uses it with
// ANTHROPIC_BASE_URL=http://127.0.0.1:PORT and any ANTHROPIC_API_KEY. It
// answers
//
//   - POST /v1/messages, streamed (server-sent events: message_start,
//     content blocks, message_delta, message_stop) or not, with the
//     script's step when the request offers tools, and a short text
//     otherwise (Claude Code asks a small model for titles and such);
//   - POST /v1/messages/count_tokens with an estimate;
//   - anything else with a 404 in the API's error shape.
//
// The step is chosen by the tool_result blocks the conversation carries.
type Anthropic struct {
	recorder
	script Script
	ids    atomic.Int64
}

// NewAnthropic starts a fake Messages API that plays script. Close it when
// done.
func NewAnthropic(script Script) *Anthropic {
	a := &Anthropic{script: script}
	a.start(a.serve)
	return a
}

type anthropicRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []json.RawMessage `json:"tools"`
}

// results returns the content of the conversation's tool_result blocks,
// in order: a string, or the JSON of the content blocks.
func (q *anthropicRequest) results() []string {
	var out []string
	for _, m := range q.Messages {
		var blocks []struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // a plain string
		}
		for _, b := range blocks {
			if b.Type != "tool_result" {
				continue
			}
			var s string
			if json.Unmarshal(b.Content, &s) != nil {
				s = string(b.Content)
			}
			out = append(out, s)
		}
	}
	return out
}

// ToolResults returns the tool results the agent sent, in the order first
// seen.
func (a *Anthropic) ToolResults() []string {
	var out []string
	seen := map[string]bool{}
	for _, q := range a.Requests() {
		var req anthropicRequest
		if json.Unmarshal(q.Body, &req) != nil {
			continue
		}
		for _, s := range req.results() {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

func (a *Anthropic) serve(w http.ResponseWriter, req *http.Request, body []byte) {
	path := req.URL.Path
	if req.Method != http.MethodPost || !strings.HasPrefix(path, "/v1/messages") {
		anthropicError(w, http.StatusNotFound, "not_found_error", "the fake Messages API has no "+req.Method+" "+path)
		return
	}
	var q anthropicRequest
	if err := json.Unmarshal(body, &q); err != nil {
		anthropicError(w, http.StatusBadRequest, "invalid_request_error", "request body: "+err.Error())
		return
	}
	if path == "/v1/messages/count_tokens" {
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": len(body)/4 + 1})
		return
	}
	if path != "/v1/messages" {
		anthropicError(w, http.StatusNotFound, "not_found_error", "the fake Messages API has no "+path)
		return
	}
	step := Say("Fake session")
	if len(q.Tools) > 0 {
		step = a.script.step(len(q.results()))
	}
	n := a.ids.Add(1)
	id := fmt.Sprintf("msg_%d", n)
	var block map[string]any
	stop := "end_turn"
	if step.Tool != "" {
		block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", n), "name": step.Tool, "input": step.Args}
		stop = "tool_use"
	} else {
		block = map[string]any{"type": "text", "text": step.Text}
	}
	usage := map[string]any{"input_tokens": 100, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !q.Stream {
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": q.Model, "content": []any{block},
			"stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	sseHeaders(w)
	send := func(typ string, fields map[string]any) {
		fields["type"] = typ
		namedSSE(w, typ, fields)
	}
	send("message_start", map[string]any{"message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": q.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	}})
	if step.Tool != "" {
		args, _ := json.Marshal(step.Args)
		send("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{
			"type": "tool_use", "id": block["id"], "name": step.Tool, "input": map[string]any{}}})
		send("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(args)}})
	} else {
		send("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		// The text in two deltas, as a real stream sends it.
		half := len(step.Text) / 2
		for _, d := range []string{step.Text[:half], step.Text[half:]} {
			send("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "text_delta", "text": d}})
		}
	}
	send("content_block_stop", map[string]any{"index": 0})
	send("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 10}})
	send("message_stop", map[string]any{})
}

func anthropicError(w http.ResponseWriter, code int, typ, msg string) {
	writeJSON(w, code, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}
