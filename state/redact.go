package state

import (
	"encoding/json"
	"unicode/utf8"
)

// ellipsis marks a truncated value.
const ellipsis = "…"

// redact applies the store's redaction to the parts of a record that can
// hold secrets: the payload (file contents, prompts, commands' input), the
// response and the hook's stderr.
func (o Options) redact(payload, response json.RawMessage, stderr string) (json.RawMessage, json.RawMessage, string) {
	switch o.Redact {
	case RedactDrop:
		return nil, nil, ""
	case RedactTruncate:
		return truncateJSON(payload, o.TruncateBytes), truncateJSON(response, o.TruncateBytes), truncateString(stderr, o.TruncateBytes)
	}
	return payload, response, stderr
}

// validJSON returns raw if it is valid JSON, else raw as a JSON string, so
// that every stored record can be encoded again (json.Marshal rejects an
// invalid RawMessage) and a hook's garbled answer is still shown.
func validJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || json.Valid(raw) {
		return raw
	}
	b, _ := json.Marshal(string(raw)) // a string always encodes
	return b
}

// truncateJSON keeps raw whole when it fits in n bytes; otherwise it
// becomes a JSON string of its first n bytes followed by "…": a cut JSON
// document would no longer be JSON.
func truncateJSON(raw json.RawMessage, n int) json.RawMessage {
	if len(raw) <= n {
		return raw
	}
	b, _ := json.Marshal(truncateString(string(raw), n))
	return b
}

// truncateString keeps s whole when it fits in n bytes; otherwise its
// first n bytes, cut back to a character boundary, followed by "…".
func truncateString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}
