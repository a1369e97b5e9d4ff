package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Responses is a fake OpenAI Responses API, as Codex CLI uses it with a
// custom model provider (wire_api = "responses", base_url
// http://127.0.0.1:PORT/v1). It answers
//
//   - POST …/responses, streamed (server-sent events, each with its event
//     name) or not, with the script's step when the request offers tools,
//     and a short text otherwise;
//   - GET …/models with the one model "fake";
//   - anything else with a 404 in the API's error shape.
//
// The step is chosen by the function_call_output items the request's
// input carries.
type Responses struct {
	recorder
	script Script
	ids    atomic.Int64
}

// NewResponses starts a fake Responses API that plays script. Close it
// when done.
func NewResponses(script Script) *Responses {
	r := &Responses{script: script}
	r.start(r.serve)
	return r
}

type responsesRequest struct {
	Model  string            `json:"model"`
	Stream bool              `json:"stream"`
	Input  []json.RawMessage `json:"input"`
	Tools  []json.RawMessage `json:"tools"`
}

// outputs returns the tool results in the request's input, in order.
func (q *responsesRequest) outputs() []string {
	var out []string
	for _, raw := range q.Input {
		var item struct {
			Type   string          `json:"type"`
			Output json.RawMessage `json:"output"`
		}
		if json.Unmarshal(raw, &item) != nil || !strings.HasSuffix(item.Type, "_call_output") {
			continue
		}
		var s string
		if json.Unmarshal(item.Output, &s) != nil {
			s = string(item.Output)
		}
		out = append(out, s)
	}
	return out
}

// ToolResults returns the tool results the agent sent (the output of each
// function_call_output), in the order first seen.
func (r *Responses) ToolResults() []string {
	var out []string
	seen := map[string]bool{}
	for _, q := range r.Requests() {
		var req responsesRequest
		if json.Unmarshal(q.Body, &req) != nil {
			continue
		}
		for _, s := range req.outputs() {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

func (r *Responses) serve(w http.ResponseWriter, req *http.Request, body []byte) {
	switch {
	case req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/models"):
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": "fake", "object": "model", "created": 0, "owned_by": "agenttest"}}})
		return
	case req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/responses"):
		openaiError(w, http.StatusNotFound, "the fake Responses API has no "+req.Method+" "+req.URL.Path)
		return
	}
	var q responsesRequest
	if err := json.Unmarshal(body, &q); err != nil {
		openaiError(w, http.StatusBadRequest, "request body: "+err.Error())
		return
	}
	step := Say("Fake session")
	if len(q.Tools) > 0 {
		step = r.script.step(len(q.outputs()))
	}
	n := r.ids.Add(1)
	respID := fmt.Sprintf("resp_%d", n)
	var item map[string]any
	if step.Tool != "" {
		args, _ := json.Marshal(step.Args)
		item = map[string]any{
			"type": "function_call", "id": fmt.Sprintf("fc_%d", n), "call_id": fmt.Sprintf("call_%d", n),
			"name": step.Tool, "arguments": string(args), "status": "completed",
		}
	} else {
		item = map[string]any{
			"type": "message", "id": fmt.Sprintf("msg_%d", n), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": step.Text, "annotations": []any{}}},
		}
	}
	usage := map[string]any{
		"input_tokens": 100, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 10, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens": 110,
	}
	response := func(status string, output []any) map[string]any {
		m := map[string]any{
			"id": respID, "object": "response", "created_at": time.Now().Unix(), "status": status,
			"model": q.Model, "output": output,
		}
		if status == "completed" {
			m["usage"] = usage
		}
		return m
	}
	if !q.Stream {
		writeJSON(w, http.StatusOK, response("completed", []any{item}))
		return
	}
	sseHeaders(w)
	seq := 0
	send := func(typ string, fields map[string]any) {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		namedSSE(w, typ, fields)
	}
	send("response.created", map[string]any{"response": response("in_progress", []any{})})
	send("response.in_progress", map[string]any{"response": response("in_progress", []any{})})
	if step.Tool != "" {
		added := map[string]any{}
		for k, v := range item {
			added[k] = v
		}
		added["arguments"], added["status"] = "", "in_progress"
		send("response.output_item.added", map[string]any{"output_index": 0, "item": added})
		send("response.function_call_arguments.delta", map[string]any{"output_index": 0, "item_id": item["id"], "delta": item["arguments"]})
		send("response.function_call_arguments.done", map[string]any{"output_index": 0, "item_id": item["id"], "arguments": item["arguments"]})
	} else {
		send("response.output_item.added", map[string]any{"output_index": 0, "item": map[string]any{
			"type": "message", "id": item["id"], "role": "assistant", "status": "in_progress", "content": []any{}}})
		send("response.content_part.added", map[string]any{"output_index": 0, "item_id": item["id"], "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
		// The text in two deltas, as a real stream sends it.
		half := len(step.Text) / 2
		for _, d := range []string{step.Text[:half], step.Text[half:]} {
			send("response.output_text.delta", map[string]any{"output_index": 0, "item_id": item["id"], "content_index": 0, "delta": d})
		}
		send("response.output_text.done", map[string]any{"output_index": 0, "item_id": item["id"], "content_index": 0, "text": step.Text})
		send("response.content_part.done", map[string]any{"output_index": 0, "item_id": item["id"], "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": step.Text, "annotations": []any{}}})
	}
	send("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	send("response.completed", map[string]any{"response": response("completed", []any{item})})
}

// namedSSE writes one server-sent event with its event name and v as JSON
// data.
func namedSSE(w http.ResponseWriter, name string, v any) {
	b, _ := json.Marshal(v)
	_, _ = w.Write([]byte("event: " + name + "\ndata: "))
	_, _ = w.Write(b)
	_, _ = w.Write([]byte("\n\n"))
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
