package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// checkOpenAI checks a chat completions request as the API would, and as
// a prompt hook needs it: a model, a system and a user message, and a
// strict json_schema response format describing {"ok", "reason"}.
func checkOpenAI(r *http.Request, body []byte) (Call, string) {
	var c Call
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		return c, fmt.Sprintf("want POST /v1/chat/completions, got %s %s", r.Method, r.URL.Path)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return c, "Content-Type is " + ct
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
		ResponseFormat *struct {
			Type       string `json:"type"`
			JSONSchema *struct {
				Name   string          `json:"name"`
				Strict bool            `json:"strict"`
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
		Stream bool `json:"stream"`
	}
	if err := strictDecode(body, &req); err != nil {
		return c, err.Error()
	}
	c.Model = req.Model
	switch {
	case req.Model == "":
		return c, `"model" is missing`
	case req.Stream:
		return c, `"stream": true is not expected`
	case len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user":
		return c, "want a system message then a user message"
	case req.Messages[1].Content == "":
		return c, "the user message is empty"
	case req.ResponseFormat == nil || req.ResponseFormat.Type != "json_schema" || req.ResponseFormat.JSONSchema == nil:
		return c, `want "response_format": {"type": "json_schema", "json_schema": {…}}`
	case req.ResponseFormat.JSONSchema.Name == "" || !req.ResponseFormat.JSONSchema.Strict:
		return c, "json_schema needs a name and strict: true"
	}
	if p := checkVerdictSchema(req.ResponseFormat.JSONSchema.Schema, true); p != "" {
		return c, "json_schema.schema: " + p
	}
	c.System, c.Prompt = req.Messages[0].Content, req.Messages[1].Content
	return c, ""
}

// checkAnthropic checks a Messages request: version header, model,
// max_tokens, a user message, and one tool with an input schema that
// tool_choice forces.
func checkAnthropic(r *http.Request, body []byte) (Call, string) {
	var c Call
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		return c, fmt.Sprintf("want POST /v1/messages, got %s %s", r.Method, r.URL.Path)
	}
	if v := r.Header.Get("anthropic-version"); v != "2023-06-01" {
		return c, fmt.Sprintf("anthropic-version header is %q", v)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return c, "Content-Type is " + ct
	}
	var req struct {
		Model     string `json:"model"`
		MaxTokens int    `json:"max_tokens"`
		System    string `json:"system"`
		Messages  []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
		ToolChoice *struct {
			Type                   string `json:"type"`
			Name                   string `json:"name"`
			DisableParallelToolUse bool   `json:"disable_parallel_tool_use"`
		} `json:"tool_choice"`
	}
	if err := strictDecode(body, &req); err != nil {
		return c, err.Error()
	}
	c.Model = req.Model
	switch {
	case req.Model == "":
		return c, `"model" is missing`
	case req.MaxTokens <= 0:
		return c, `"max_tokens" must be a positive integer`
	case len(req.Messages) != 1 || req.Messages[0].Role != "user" || req.Messages[0].Content == "":
		return c, "want one non-empty user message"
	case len(req.Tools) != 1 || req.Tools[0].Name == "":
		return c, "want one named tool"
	case req.ToolChoice == nil || req.ToolChoice.Type != "tool" || req.ToolChoice.Name != req.Tools[0].Name:
		return c, `want "tool_choice": {"type": "tool", "name": <the tool>}`
	}
	if p := checkVerdictSchema(req.Tools[0].InputSchema, false); p != "" {
		return c, "input_schema: " + p
	}
	c.System, c.Prompt = req.System, req.Messages[0].Content
	return c, ""
}

// strictDecode decodes one JSON object, refusing keys the struct lacks, so
// that a misspelt field fails the test as the real API would reject it.
func strictDecode(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("body: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("body: data after the JSON object")
	}
	return nil
}

// checkVerdictSchema checks that a schema describes {"ok": boolean,
// "reason": string}. OpenAI's strict mode further wants every property
// required and additionalProperties false.
func checkVerdictSchema(raw json.RawMessage, strict bool) string {
	var s struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
		Additional *bool                      `json:"additionalProperties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return err.Error()
	}
	if s.Type != "object" {
		return `"type" must be "object"`
	}
	for name, typ := range map[string]string{"ok": "boolean", "reason": "string"} {
		var p struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(s.Properties[name], &p) != nil || p.Type != typ {
			return fmt.Sprintf("property %q must be a %s", name, typ)
		}
	}
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	if !req["ok"] {
		return `"ok" must be required`
	}
	if strict && (len(s.Properties) != len(s.Required) || s.Additional == nil || *s.Additional) {
		return "strict mode needs every property required and additionalProperties: false"
	}
	return ""
}

// openAIAnswer is a chat.completion object as OpenAI returns it.
func openAIAnswer(model string, r Reply) map[string]any {
	msg := map[string]any{"role": "assistant", "content": r.Verdict, "refusal": nil, "annotations": []any{}}
	finish := "stop"
	if r.AsToolCall {
		msg["content"] = nil
		msg["tool_calls"] = []any{map[string]any{
			"id": "call_Zl2fTn7Qv6cJ3yX0bGk1LmNo", "type": "function",
			"function": map[string]any{"name": "hook_verdict", "arguments": r.Verdict},
		}}
		finish = "tool_calls"
	}
	if r.Refusal != "" {
		msg["content"], msg["refusal"] = nil, r.Refusal
	}
	if r.StopReason != "" {
		finish = r.StopReason
	}
	return map[string]any{
		"id":      "chatcmpl-BRlBwLpH3bB3kp8X1V2s1wKjTest",
		"object":  "chat.completion",
		"created": 1745000000,
		"model":   model,
		"choices": []any{map[string]any{
			"index": 0, "message": msg, "logprobs": nil, "finish_reason": finish,
		}},
		"usage": map[string]any{
			"prompt_tokens": 182, "completion_tokens": 14, "total_tokens": 196,
			"prompt_tokens_details":     map[string]any{"cached_tokens": 0, "audio_tokens": 0},
			"completion_tokens_details": map[string]any{"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
		},
		"service_tier":       "default",
		"system_fingerprint": "fp_38343a2f8f",
	}
}

// anthropicAnswer is a Message object as the Messages API returns it.
func (s *Server) anthropicAnswer(model string, r Reply) map[string]any {
	var content []any
	stop := "tool_use"
	if r.AsText {
		content = []any{map[string]any{"type": "text", "text": r.Verdict}}
		stop = "end_turn"
	} else {
		if !json.Valid([]byte(r.Verdict)) || !strings.HasPrefix(strings.TrimSpace(r.Verdict), "{") {
			s.t.Errorf("llmtest: an Anthropic tool_use input must be a JSON object, got %q (use AsText)", r.Verdict)
		}
		content = []any{map[string]any{
			"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9T",
			"name": "hook_verdict", "input": json.RawMessage(r.Verdict),
		}}
	}
	if r.StopReason != "" {
		stop = r.StopReason
	}
	return map[string]any{
		"id":            "msg_01XFDUDYJgAACzvnptvVoYEL",
		"type":          "message",
		"role":          "assistant",
		"model":         model,
		"content":       content,
		"stop_reason":   stop,
		"stop_sequence": nil,
		"usage": map[string]any{
			"input_tokens": 412, "output_tokens": 38,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
			"service_tier": "standard",
		},
	}
}
