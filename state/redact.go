package state

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// What RedactSecrets (the default) does to a record before it is stored:
//
//   - Secrets are replaced by "[REDACTED:kind]" in every string value of
//     the payload and the response (JSON, decoded, redacted and encoded
//     again, so they stay valid JSON) and in stderr: the token shapes of
//     redact_secrets.go, values assigned to secret-looking names
//     (redact_assign.go), and string members whose own name looks like a
//     secret's ({"api_key": "…"}).
//   - When the payload is about a .env file (a file_path, filePath or path
//     member names one), every value in its content fields is redacted too
//     (redact_env.go), in the payload and in that run's responses.
//   - The content fields (capKeys) are cut to TruncateBytes, every other
//     string to otherCapFactor times that, with a marker of how many bytes
//     were cut; the rest of the payload is kept. Past budgetFactor times
//     TruncateBytes of strings in one document, its long strings keep
//     only the marker.
//
// RedactTruncate does the same redaction, then cuts each whole payload,
// response and stderr to TruncateBytes.

// maxDepth is the deepest nesting a stored document keeps as JSON, as
// encoding/json's.
const maxDepth = audit.MaxDepth

// ellipsis marks a truncated value.
const ellipsis = "…"

// capKeys are the members that hold file contents, command output and
// tool results: what makes a payload big.
var capKeys = map[string]bool{
	"content": true, "new_content": true, "old_string": true, "new_string": true,
	"output": true, "result_json": true, "tool_output": true, "tool_response": true,
	"stdout": true, "stderr": true, "text": true,
}

// envKeys are the members that hold a file's content: those an .env
// file's values are redacted in.
var envKeys = map[string]bool{
	"content": true, "new_content": true, "old_string": true, "new_string": true,
	"old_line": true, "new_line": true,
}

// pathKeys are the members that name the file a payload is about.
var pathKeys = map[string]bool{"file_path": true, "filePath": true, "path": true}

// otherCapFactor is how many times TruncateBytes a string that is not in
// capKeys may be (a long prompt, a hook's message) before it is cut too.
const otherCapFactor = 16

// budgetFactor is how many times TruncateBytes one document may keep of
// its strings in all: past that, its strings longer than shortString are
// cut to nothing but their marker. It bounds what one payload costs to
// redact and to store however many long strings it has (a thousand
// edits); the short ones (paths, ids, names) are always kept.
const (
	budgetFactor = 256
	shortString  = 256
)

// redactor redacts one JSON document.
type redactor struct {
	// limit and otherLimit cap capKeys' strings and the others'; 0 for
	// no cap.
	limit, otherLimit int
	// budget is how many more bytes of strings the document keeps; -1
	// for no bound.
	budget int
	// env redacts every value in envKeys' strings: the run read or
	// edited a .env file.
	env bool
}

// redactor is the redaction of this mode for one document of a run whose
// payload is about a .env file when env is set. RedactTruncate caps every
// string at what it keeps of the whole document anyway, so that no more is
// searched for secrets than can be kept.
func (o Options) redactor(env bool) *redactor {
	r := &redactor{env: env, budget: -1}
	switch o.Redact {
	case RedactSecrets:
		r.limit, r.otherLimit, r.budget = o.TruncateBytes, otherCapFactor*o.TruncateBytes, budgetFactor*o.TruncateBytes
	case RedactTruncate:
		r.limit, r.otherLimit, r.budget = o.TruncateBytes, o.TruncateBytes, o.TruncateBytes
	}
	return r
}

// payload is what is stored of a run's payload, and whether it is about a
// .env file. checked is the record's PayloadChecked: raw is known to be
// JSON nested no deeper than maxDepth, and is not scanned again.
func (o Options) payload(raw json.RawMessage, checked bool) (json.RawMessage, bool) {
	if o.Redact == RedactDrop {
		return nil, false
	}
	if !checked {
		raw = validJSON(raw)
	}
	if o.Redact == RedactKeep {
		return raw, false
	}
	env := aboutEnvFile(raw)
	return o.finish(o.redactor(env).json(raw)), env
}

// response is what is stored of a hook's response in a run whose payload
// is (env) or is not about a .env file.
func (o Options) response(raw json.RawMessage, env bool) json.RawMessage {
	switch o.Redact {
	case RedactDrop:
		return nil
	case RedactKeep:
		return validJSON(raw)
	}
	return o.finish(o.redactor(env).json(validJSON(raw)))
}

// stderr is what is stored of a hook's stderr.
func (o Options) stderr(s string) string {
	switch o.Redact {
	case RedactDrop:
		return ""
	case RedactKeep:
		return s
	case RedactTruncate:
		return truncateString(o.redactor(false).str("", s), o.TruncateBytes)
	}
	return o.redactor(false).str("", s)
}

// finish applies RedactTruncate's cut of the whole.
func (o Options) finish(raw json.RawMessage) json.RawMessage {
	if o.Redact == RedactTruncate {
		return truncateJSON(raw, o.TruncateBytes)
	}
	return raw
}

// json redacts raw, valid JSON. Should the result not be valid JSON (a
// bug), a marker is stored instead: never the unredacted document.
func (r *redactor) json(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	out := rewriteStrings(raw, r.literal)
	// jsonscan, not json.Valid: a payload nested past encoding/json's
	// 10000 levels is still a document to keep.
	if !jsonscan.Valid(out) {
		return json.RawMessage(`"` + redactedPrefix + `unreadable]"`)
	}
	return out
}

// literal is the redacted form of one string literal lit (quotes
// included), the value of member key; ok is false when it is unchanged.
func (r *redactor) literal(key string, lit []byte) ([]byte, bool) {
	content := lit[1 : len(lit)-1]
	if len(content) == 0 {
		return nil, false
	}
	if isSecretName(key) {
		return encodeString(redactedPrefix + "secret-value]"), true
	}
	limit := r.otherLimit
	if capKeys[key] {
		limit = r.limit
	}
	if r.budget >= 0 && len(content) > shortString {
		if r.budget == 0 {
			return encodeString(cutMarker(decodedLen(content))), true
		}
		if limit == 0 || limit > r.budget {
			limit = r.budget
		}
		r.budget -= min(len(content), limit)
	}
	var s string
	var total int
	if limit > 0 && len(content) > limit {
		// total > limit whenever s is not the whole string.
		s, total, _ = decodePrefix(content, limit+capMargin)
	} else {
		s = decodeLiteral(content)
		total = len(s)
	}
	spans := secretSpans(s)
	if r.env && envKeys[key] {
		spans = mergeSpans(append(envFileSpans(s), spans...))
	}
	switch {
	case limit > 0 && total > limit:
		return encodeString(cutString(s, total, limit, spans)), true
	case len(spans) > 0:
		return encodeString(renderSpans(s, spans)), true
	}
	return nil, false
}

// str redacts and caps a string that is not JSON (stderr).
func (r *redactor) str(key string, s string) string {
	limit := r.otherLimit
	if capKeys[key] {
		limit = r.limit
	}
	if limit > 0 && len(s) > limit+capMargin {
		total := len(s)
		c := limit + capMargin
		for c > 0 && !utf8.RuneStart(s[c]) {
			c--
		}
		s = s[:c]
		return cutString(s, total, limit, secretSpans(s))
	}
	spans := secretSpans(s)
	if limit > 0 && len(s) > limit {
		return cutString(s, len(s), limit, spans)
	}
	return renderSpans(s, spans)
}

// aboutEnvFile reports whether a payload names a .env file in one of its
// pathKeys members.
func aboutEnvFile(raw json.RawMessage) bool {
	if !bytes.Contains(raw, []byte(".env")) {
		return false
	}
	env := false
	rewriteStrings(raw, func(key string, lit []byte) ([]byte, bool) {
		if !env && pathKeys[key] && isEnvFile(decodeLiteral(lit[1:len(lit)-1])) {
			env = true
		}
		return nil, false
	})
	return env
}

// validJSON returns raw if it is valid JSON, else raw as a JSON string, so
// that every stored record can be encoded again (json.Marshal rejects an
// invalid RawMessage) and a hook's garbled answer is still shown. It
// checks with jsonscan, several times faster than json.Valid on a large
// file's content, and to encoding/json's depth: rewriteStrings keeps a
// frame per level.
func validJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || jsonscan.CheckDepth(raw, maxDepth) == nil {
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
