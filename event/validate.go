package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// ResponseError reports a hook answer that is not valid for its step: the
// runner's invalid_output failure. Problems says what is wrong, one entry
// per offending field, in a fixed order.
type ResponseError struct {
	Step     Step
	Problems []string
}

func (e *ResponseError) Error() string {
	prefix := "invalid response: "
	if e.Step != "" {
		prefix = "invalid " + string(e.Step) + " response: "
	}
	return prefix + strings.Join(e.Problems, "; ")
}

// ParseResponse validates a hook's stdout against step's response schema
// (Cursor's response validators and its documentation's output tables;
// docs/semantics.md) and returns it normalised.
//
//   - Empty or whitespace-only stdout is "no opinion": (nil, nil).
//   - Otherwise stdout must hold exactly one JSON object, in valid UTF-8,
//     optionally surrounded by whitespace and preceded by a UTF-8 byte
//     order mark (PowerShell writes one).
//   - Keys the step defines must have the documented type, and permission
//     one of the step's values; JSON null counts as absent. Every problem
//     is reported, not just the first.
//   - Keys the step does not define are allowed and not copied; nor is
//     anything for steps without output fields, which accept any object.
//     Response.Raw always holds the object as printed.
//   - A field may also be spelled in camelCase (userMessage,
//     agentMessage, followupMessage, additionalContext, updatedInput,
//     newContent, updatedMcpToolOutput or updatedMCPToolOutput), as older
//     Cursor documentation and SDKs write it; the snake_case key wins
//     when both are given.
//   - A key given twice keeps its last value, as JavaScript's JSON.parse
//     (and so Cursor) does.
//   - An answer that stops the action in words the step does not define
//     (Claude Code's decision "block", continue false on a gate, …) is
//     read as the step's own, and ParseAnswer's Reading says so (readStricter).
//   - "ask" on a step that cannot ask (beforeReadFile, beforeTabFileRead)
//     is a deny, the stricter reading.
//
// Errors are *ResponseError.
func ParseResponse(step Step, stdout []byte) (*Response, error) {
	r, _, err := ParseAnswer(step, stdout)
	return r, err
}

// ParseAnswer is ParseResponse that also says how the answer was read
// beyond the step's own words.
func ParseAnswer(step Step, stdout []byte) (*Response, Reading, error) {
	var rd Reading
	obj, raw, err := decodeObject(stdout)
	if err != nil {
		return nil, rd, &ResponseError{Step: step, Problems: []string{err.Error()}}
	}
	if raw == nil {
		return nil, rd, nil
	}
	resp := &Response{Raw: raw}
	sc := schemaFor(step)
	var problems []string
	if sc.permissions != nil {
		if v, ok := present(obj, "permission"); ok {
			p, err := sc.permission(v)
			if err != nil {
				problems = append(problems, fmt.Sprintf("field %q: %v", "permission", err))
			}
			resp.Permission = p
			if sc.askDenies && p == Deny && string(v) == `"ask"` {
				rd.Form = `"permission": "ask", which ` + string(step) + " cannot do"
			}
		}
	}
	for _, f := range sc.fields {
		key := f.key
		v, ok := present(obj, key)
		if !ok {
			key, v, ok = presentCamel(obj, f.key)
		}
		if ok {
			if err := f.set(resp, v); err != nil {
				problems = append(problems, fmt.Sprintf("field %q: %v", key, err))
			}
		}
	}
	if problems != nil {
		return nil, rd, &ResponseError{Step: step, Problems: problems}
	}
	if form, held := readStricter(step, sc, obj, resp); form != "" {
		rd.Form, rd.Held = form, held
	}
	return resp, rd, nil
}

// presentCamel returns the value of key's camelCase spelling (user_message
// → userMessage; updated_mcp_tool_output also as updatedMCPToolOutput),
// and the key found, unless it is missing or null.
func presentCamel(obj map[string]json.RawMessage, key string) (string, json.RawMessage, bool) {
	for _, k := range camelKeys[key] {
		if v, ok := present(obj, k); ok {
			return k, v, true
		}
	}
	return "", nil, false
}

// camelKeys are the camelCase spellings of every response key with an
// underscore, made once: ParseResponse runs for every hook's answer.
var camelKeys = func() map[string][]string {
	out := map[string][]string{}
	for _, sc := range []schema{schemaCommand, schemaPreToolUse, schemaSubagentStart, schemaReadFile, schemaTabRead,
		schemaPrompt, schemaSession, schemaPostToolUse, schemaPreCompact, schemaFollowup} {
		for _, f := range sc.fields {
			if strings.Contains(f.key, "_") {
				out[f.key] = camelSpellings(f.key)
			}
		}
	}
	return out
}()

// camelSpellings are key's camelCase spellings: with "mcp" as Mcp, and,
// when it holds it, as MCP.
func camelSpellings(key string) []string {
	var lower, upper strings.Builder
	for i, w := range strings.Split(key, "_") {
		switch {
		case i == 0:
			lower.WriteString(w)
			upper.WriteString(w)
		case w == "mcp":
			lower.WriteString("Mcp")
			upper.WriteString("MCP")
		default:
			t := strings.ToUpper(w[:1]) + w[1:]
			lower.WriteString(t)
			upper.WriteString(t)
		}
	}
	if lower.String() == upper.String() {
		return []string{lower.String()}
	}
	return []string{lower.String(), upper.String()}
}

// present returns obj[key] unless it is missing or null.
func present(obj map[string]json.RawMessage, key string) (json.RawMessage, bool) {
	v, ok := obj[key]
	if !ok || kindOf(v) == kindNull {
		return nil, false
	}
	return v, true
}

// utf8BOM is the byte order mark some Windows tools put before UTF-8 text.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// decodeObject finds the one JSON object in stdout. It returns nil raw
// (and no error) when stdout holds nothing but whitespace. Byte positions
// in errors count from the start of stdout.
func decodeObject(stdout []byte) (map[string]json.RawMessage, json.RawMessage, error) {
	start := 0
	if bytes.HasPrefix(stdout, utf8BOM) {
		start = len(utf8BOM)
	}
	start += skipSpace(stdout[start:])
	body := bytes.TrimRight(stdout[start:], jsonSpace)
	if len(body) == 0 {
		return nil, nil, nil
	}
	if at := invalidUTF8(body); at >= 0 {
		return nil, nil, fmt.Errorf("invalid UTF-8 at byte %d", start+at)
	}

	// Fast path: a well-formed object decodes in one pass. Anything else
	// takes the slower path below, which says precisely what is wrong.
	var obj map[string]json.RawMessage
	if body[0] == '{' && json.Unmarshal(body, &obj) == nil && obj != nil {
		return obj, bytes.Clone(body), nil
	}

	dec := json.NewDecoder(bytes.NewReader(body))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, nil, syntaxProblem(err, start)
	}
	if k := kindOf(raw); k != kindObject {
		return nil, nil, fmt.Errorf("not a JSON object: got %s", k.withArticle())
	}
	if end := int(dec.InputOffset()); end < len(body) {
		end += skipSpace(body[end:])
		return nil, nil, fmt.Errorf("trailing data after the JSON object at byte %d", start+end)
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return obj, raw, nil
}

// syntaxProblem rewords a decoder error with its position in stdout.
func syntaxProblem(err error, start int) error {
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn):
		// Offset counts the bytes read, the offending one included.
		at := start + max(int(syn.Offset)-1, 0)
		return fmt.Errorf("invalid JSON at byte %d: %s", at, syn.Error())
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errors.New("invalid JSON: unexpected end of input")
	}
	return fmt.Errorf("invalid JSON: %w", err)
}

// jsonSpace is JSON's whitespace (RFC 8259, section 2).
const jsonSpace = " \t\r\n"

// skipSpace returns the number of leading JSON whitespace bytes of b.
func skipSpace(b []byte) int {
	n := 0
	for n < len(b) && strings.IndexByte(jsonSpace, b[n]) >= 0 {
		n++
	}
	return n
}

// invalidUTF8 returns the offset of the first byte of b that is not valid
// UTF-8, or -1. The check is explicit because encoding/json silently
// replaces such bytes inside strings.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// kind is the type of a JSON value, as error messages name it.
type kind string

const (
	kindObject  kind = "object"
	kindArray   kind = "array"
	kindString  kind = "string"
	kindNumber  kind = "number"
	kindBoolean kind = "boolean"
	kindNull    kind = "null"
)

// kindOf tells the type of an already-validated JSON value by its first
// byte.
func kindOf(v json.RawMessage) kind {
	v = v[skipSpace(v):]
	if len(v) == 0 {
		return kindNull
	}
	switch v[0] {
	case '{':
		return kindObject
	case '[':
		return kindArray
	case '"':
		return kindString
	case 't', 'f':
		return kindBoolean
	case 'n':
		return kindNull
	}
	return kindNumber
}

func (k kind) withArticle() string {
	switch k {
	case kindObject, kindArray:
		return "an " + string(k)
	case kindNull:
		return string(k)
	}
	return "a " + string(k)
}
