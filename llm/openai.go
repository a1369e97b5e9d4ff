package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// openAIClient speaks OpenAI's chat completions protocol, which OpenAI,
// OpenRouter, Ollama, vLLM, LM Studio and the llama.cpp server all serve
// at {base}/chat/completions.
//
// Structured output is asked for with response_format json_schema in
// strict mode: OpenAI then guarantees the schema, and the local servers
// turn it into a grammar. No token limit or temperature is sent, because
// reasoning models reject both and a verdict is short anyway; the
// context's deadline bounds the cost.
type openAIClient struct {
	*base
}

type openAIRequest struct {
	Model          string          `json:"model"`
	Messages       []openAIMessage `json:"messages"`
	ResponseFormat openAIFormat    `json:"response_format"`
	Stream         bool            `json:"stream"`
}

type openAIMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type openAIFormat struct {
	Type       string           `json:"type"`
	JSONSchema openAIJSONSchema `json:"json_schema"`
}

type openAIJSONSchema struct {
	Name   string          `json:"name"`
	Strict bool            `json:"strict"`
	Schema json.RawMessage `json:"schema"`
}

// openAIResponse is the part of a chat.completion object that is read.
type openAIResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			// Content is a string, null (with tool calls or a refusal),
			// or, from some compatible servers, an array of parts.
			Content   json.RawMessage `json:"content"`
			Refusal   *string         `json:"refusal"`
			ToolCalls []struct {
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
}

// Judge implements Client.
func (c *openAIClient) Judge(ctx context.Context, req Request) (Answer, error) {
	if err := c.checkKey(); err != nil {
		return Answer{}, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultTimeout)
		defer cancel()
	}
	model := c.model(req)
	body, err := json.Marshal(openAIRequest{
		Model: model,
		Messages: []openAIMessage{
			{Role: "system", Content: systemPrompt},
			{Role: "user", Content: req.Prompt},
		},
		ResponseFormat: openAIFormat{Type: "json_schema", JSONSchema: openAIJSONSchema{
			Name: verdictName, Strict: true, Schema: verdictSchema,
		}},
	})
	if err != nil {
		return Answer{}, fmt.Errorf("openai: encoding the request: %w", err)
	}
	h := http.Header{}
	if c.cfg.APIKey != "" {
		h.Set("Authorization", "Bearer "+string(c.cfg.APIKey))
	}
	data, attempts, err := c.post(ctx, "/chat/completions", h, body, openAIError)
	if err != nil {
		return Answer{Model: model, Attempts: attempts}, err
	}
	var resp openAIResponse
	if err := json.Unmarshal(data, &resp); err != nil {
		return Answer{Model: model, Attempts: attempts}, &AnswerError{Provider: OpenAI, Model: model,
			Problem: "the API's answer is not a chat completion: " + err.Error(), Answer: c.excerpt(string(data))}
	}
	if resp.Model != "" {
		model = resp.Model
	}
	raw, aerr := openAIVerdict(resp)
	ans := Answer{Model: model, Attempts: attempts}
	if aerr != nil {
		aerr.Provider, aerr.Model = OpenAI, model
		aerr.Answer = c.excerpt(aerr.Answer)
		return ans, aerr
	}
	return c.finish(ans, raw)
}

// openAIVerdict finds the verdict text in the first choice: its content,
// or, from servers that implement structured output as a forced function
// call, the arguments of its single tool call.
func openAIVerdict(resp openAIResponse) ([]byte, *AnswerError) {
	if len(resp.Choices) == 0 {
		return nil, &AnswerError{Problem: "the answer has no choices"}
	}
	ch := resp.Choices[0]
	content, err := contentText(ch.Message.Content)
	if err != nil {
		return nil, &AnswerError{Problem: err.Error(), Answer: string(ch.Message.Content)}
	}
	switch {
	case ch.Message.Refusal != nil && *ch.Message.Refusal != "":
		return nil, &AnswerError{Problem: "the model refused", Answer: *ch.Message.Refusal}
	case ch.FinishReason == "length":
		return nil, &AnswerError{Problem: "the answer was cut short by the token limit", Answer: content}
	case ch.FinishReason == "content_filter":
		return nil, &AnswerError{Problem: "the provider's content filter withheld the answer", Answer: content}
	case strings.TrimSpace(content) != "":
		return []byte(content), nil
	case len(ch.Message.ToolCalls) == 1 && ch.Message.ToolCalls[0].Function.Arguments != "":
		return []byte(ch.Message.ToolCalls[0].Function.Arguments), nil
	case len(ch.Message.ToolCalls) > 1:
		return nil, &AnswerError{Problem: fmt.Sprintf("the answer is %d tool calls, not one verdict", len(ch.Message.ToolCalls))}
	}
	return nil, &AnswerError{Problem: "the answer is empty"}
}

// contentText reads a message's content: a string, null, or an array of
// {"type": "text", "text": …} parts.
func contentText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("the message content is neither text nor text parts")
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}

// openAIError reads {"error": {"message", "type", "code"}}, or the
// {"error": "…"} of some compatible servers.
func openAIError(body []byte) (typ, msg string) {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || len(e.Error) == 0 {
		return "", ""
	}
	var s string
	if json.Unmarshal(e.Error, &s) == nil {
		return "", s
	}
	var o struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(e.Error, &o) != nil {
		return "", ""
	}
	typ = o.Type
	var code string
	if json.Unmarshal(o.Code, &code) == nil && code != "" {
		typ = code
	}
	return typ, o.Message
}
