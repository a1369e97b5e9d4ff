// Package llm asks a language model one yes-or-no question and returns its
// verdict: the judge behind prompt hooks (Cursor's "Prompt-Based Hooks";
// docs/prompt-hooks.md).
//
// Two wire protocols are spoken with net/http alone, so that no SDK is
// pulled into the module: OpenAI-compatible chat completions (OpenAI,
// OpenRouter, Ollama, vLLM, the llama.cpp server, …) and Anthropic's
// Messages API. Both ask for structured output, retry overloads within the
// caller's deadline, and never put the API key in an error or a log.
package llm

import (
	"context"
	"encoding/json"
	"log/slog"
)

// Client judges one condition. Implementations are safe for concurrent
// use: the engine runs many prompt hooks at once.
type Client interface {
	// Judge asks the model whether the condition in req.Prompt holds.
	// The context bounds the whole call, retries included. A model that
	// answered something other than a verdict gives an *AnswerError; a
	// provider that refused or failed gives an *APIError; a deadline or
	// cancellation gives an error that wraps the context's error.
	Judge(ctx context.Context, req Request) (Answer, error)
}

// Request is one question for the model.
type Request struct {
	// Prompt is the whole user message: the hook's condition with its
	// input already substituted.
	Prompt string
	// Model overrides the client's default model when not empty (the
	// hook's "model" field).
	Model string
}

// Answer is the model's verdict.
type Answer struct {
	// OK is true when the condition holds.
	OK bool
	// Reason is the model's one-sentence explanation; it may be empty.
	Reason string
	// Raw is the verdict object exactly as the model produced it, for the
	// execution log.
	Raw json.RawMessage
	// Model names the model that answered, as the provider reported it
	// (or as requested, when the provider did not say).
	Model string
	// Attempts counts the HTTP requests made, retries included.
	Attempts int
}

// Secret holds an API key. It formats, marshals and logs as "[redacted]"
// so that printing a Config by mistake never shows the key.
type Secret string

const redacted = "[redacted]"

// String implements fmt.Stringer.
func (Secret) String() string { return redacted }

// GoString implements fmt.GoStringer, for %#v.
func (Secret) GoString() string { return redacted }

// MarshalJSON implements json.Marshaler.
func (Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// LogValue implements slog.LogValuer.
func (Secret) LogValue() slog.Value { return slog.StringValue(redacted) }
