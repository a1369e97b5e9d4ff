package llm

import (
	"fmt"
	"strings"
)

// AnswerError means the provider answered but the model's reply is not a
// verdict: not JSON, extra or missing fields, wrong types, a refusal, or
// cut short by the token limit. Retrying would ask a second opinion, so the
// caller gets it at once; prompt hooks count it as invalid output.
type AnswerError struct {
	Provider string
	Model    string
	// Problem says what is wrong, in words.
	Problem string
	// Answer is the start of what the model said (at most 300 bytes), to
	// help write a better prompt.
	Answer string
}

func (e *AnswerError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s model %q did not answer with {\"ok\": boolean, \"reason\": string}: %s", e.Provider, e.Model, e.Problem)
	if e.Answer != "" {
		fmt.Fprintf(&b, "; it said: %s", e.Answer)
	}
	return b.String()
}

// APIError is a refusal or failure of the provider's API: an HTTP status
// other than 200, with the provider's own error type and message when its
// body had them.
type APIError struct {
	Provider string
	Status   int
	// Type is the provider's error type or code (e.g.
	// "authentication_error", "rate_limit_exceeded"), when given.
	Type string
	// Message is the provider's message, shortened and with the API key
	// removed.
	Message string
	// Attempts counts the requests made before giving up.
	Attempts int
	// GaveUp says why no further retry was made, when the status was one
	// that is retried (e.g. the next attempt would pass the deadline).
	GaveUp string
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s API answered HTTP %d", e.Provider, e.Status)
	if e.Type != "" {
		fmt.Fprintf(&b, " %s", e.Type)
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	}
	if hint := statusHint(e.Status); hint != "" {
		fmt.Fprintf(&b, " (%s)", hint)
	}
	if e.GaveUp != "" {
		fmt.Fprintf(&b, "; %s", e.GaveUp)
	} else if e.Attempts > 1 {
		fmt.Fprintf(&b, " (attempt %d)", e.Attempts)
	}
	return b.String()
}

// Retryable reports whether the status is worth another attempt: rate
// limits, overloads and server errors.
func (e *APIError) Retryable() bool { return retryableStatus(e.Status) }

func retryableStatus(status int) bool {
	return status == 408 || status == 409 || status == 429 || status >= 500
}

// statusHint names the usual fix for the statuses a misconfiguration
// causes, since the provider's own message rarely names our variables.
func statusHint(status int) string {
	switch status {
	case 401, 403:
		return "check the API key named by AGENTHOOKS_LLM_API_KEY_ENV"
	case 404:
		return "check AGENTHOOKS_LLM_BASE_URL and the model name"
	}
	return ""
}

// requestError is a failure to get any HTTP answer (connection refused,
// reset, DNS, TLS, deadline). Its message is built once, with the API key
// removed; Unwrap keeps the cause so that errors.Is finds a context's
// error.
type requestError struct {
	msg string
	err error
}

func (e *requestError) Error() string { return e.msg }
func (e *requestError) Unwrap() error { return e.err }

// clip shortens s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// redact removes every occurrence of key from s. Keys shorter than 8
// bytes are not searched for: such a "key" is a placeholder (Ollama users
// often set "ollama" or "x"), and blanking every "x" would garble messages.
func redact(s string, key Secret) string {
	if len(key) < 8 {
		return s
	}
	return strings.ReplaceAll(s, string(key), redacted)
}
