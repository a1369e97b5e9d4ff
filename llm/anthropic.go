package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// anthropicVersion is the Messages API version header; 2023-06-01 is the
// current (and only stable) one.
const anthropicVersion = "2023-06-01"

// anthropicMaxTokens bounds the answer; a verdict needs a few dozen.
const anthropicMaxTokens = 1024

// anthropicClient speaks Anthropic's Messages API at {base}/v1/messages.
//
// The verdict is asked for as a forced tool call: one tool whose
// input_schema is the verdict, and tool_choice naming it. That works with
// every Claude model and every Anthropic-compatible gateway, whereas the
// newer output_config.format is refused by older models and assistant
// prefill is refused by the newest ones. The tool input is still parsed
// strictly, and a plain text answer (from a gateway that ignores
// tool_choice) must itself be exactly the JSON object.
type anthropicClient struct {
	*base
}

type anthropicRequest struct {
	Model      string              `json:"model"`
	MaxTokens  int                 `json:"max_tokens"`
	System     string              `json:"system"`
	Messages   []anthropicMessage  `json:"messages"`
	Tools      []anthropicTool     `json:"tools"`
	ToolChoice anthropicToolChoice `json:"tool_choice"`
}

type anthropicMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type anthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type anthropicToolChoice struct {
	Type                   string `json:"type"`
	Name                   string `json:"name"`
	DisableParallelToolUse bool   `json:"disable_parallel_tool_use"`
}

// anthropicResponse is the part of a Message object that is read.
type anthropicResponse struct {
	Type       string `json:"type"`
	Model      string `json:"model"`
	StopReason string `json:"stop_reason"`
	Content    []struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content"`
}

// Judge implements Client.
func (c *anthropicClient) Judge(ctx context.Context, req Request) (Answer, error) {
	if err := c.checkKey(); err != nil {
		return Answer{}, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultTimeout)
		defer cancel()
	}
	model := c.model(req)
	body, err := json.Marshal(anthropicRequest{
		Model:     model,
		MaxTokens: anthropicMaxTokens,
		System:    systemPrompt,
		Messages:  []anthropicMessage{{Role: "user", Content: req.Prompt}},
		Tools: []anthropicTool{{
			Name:        verdictName,
			Description: "Report whether the condition is met, and why, in one short sentence.",
			InputSchema: verdictSchema,
		}},
		ToolChoice: anthropicToolChoice{Type: "tool", Name: verdictName, DisableParallelToolUse: true},
	})
	if err != nil {
		return Answer{}, fmt.Errorf("anthropic: encoding the request: %w", err)
	}
	h := http.Header{}
	h.Set("anthropic-version", anthropicVersion)
	if c.cfg.APIKey != "" {
		h.Set("x-api-key", string(c.cfg.APIKey))
	}
	data, attempts, err := c.post(ctx, "/v1/messages", h, body, anthropicError)
	if err != nil {
		return Answer{Model: model, Attempts: attempts}, err
	}
	var resp anthropicResponse
	if err := json.Unmarshal(data, &resp); err != nil || resp.Type != "message" {
		problem := `the API's answer is not a message (no "type": "message")`
		if err != nil {
			problem = "the API's answer is not a message: " + err.Error()
		}
		return Answer{Model: model, Attempts: attempts}, &AnswerError{Provider: Anthropic, Model: model,
			Problem: problem, Answer: c.excerpt(string(data))}
	}
	if resp.Model != "" {
		model = resp.Model
	}
	ans := Answer{Model: model, Attempts: attempts}
	raw, aerr := anthropicVerdict(resp)
	if aerr != nil {
		aerr.Provider, aerr.Model = Anthropic, model
		aerr.Answer = c.excerpt(aerr.Answer)
		return ans, aerr
	}
	return c.finish(ans, raw)
}

// anthropicVerdict finds the verdict: the input of the one hook_verdict
// tool_use block, else the text blocks.
func anthropicVerdict(resp anthropicResponse) ([]byte, *AnswerError) {
	var (
		uses []json.RawMessage
		text strings.Builder
	)
	for _, b := range resp.Content {
		switch b.Type {
		case "tool_use":
			if b.Name != verdictName {
				return nil, &AnswerError{Problem: fmt.Sprintf("the model called an unknown tool %q", b.Name), Answer: string(b.Input)}
			}
			uses = append(uses, b.Input)
		case "text":
			text.WriteString(b.Text)
		}
	}
	switch {
	case resp.StopReason == "max_tokens":
		return nil, &AnswerError{Problem: "the answer was cut short by the token limit", Answer: text.String()}
	case resp.StopReason == "refusal":
		return nil, &AnswerError{Problem: "the model refused", Answer: text.String()}
	case len(uses) == 1:
		return uses[0], nil
	case len(uses) > 1:
		return nil, &AnswerError{Problem: fmt.Sprintf("the model called %s %d times", verdictName, len(uses))}
	case strings.TrimSpace(text.String()) != "":
		return []byte(text.String()), nil
	}
	return nil, &AnswerError{Problem: "the answer is empty"}
}

// anthropicError reads {"type": "error", "error": {"type", "message"}}.
func anthropicError(body []byte) (typ, msg string) {
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil {
		return "", ""
	}
	return e.Error.Type, e.Error.Message
}
