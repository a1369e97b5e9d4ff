package state

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/agenthooks/agenthooks/internal/jsonplain"
)

// rewriteStrings returns doc, which must be valid JSON, with each string
// value replaced by what fn returns for it (when ok). fn is given the
// literal with its quotes, and the name of the member the string is the
// value of: for an array's elements, the array's; "" at the top. Object
// keys are not values. Everything else is copied as it is, whitespace
// included, and doc itself is returned when nothing changed.
//
// doc being valid (validJSON, which also bounds the nesting), the walk
// needs no error paths: it only tells keys from values.
func rewriteStrings(doc []byte, fn func(key string, lit []byte) ([]byte, bool)) []byte {
	type frame struct {
		object bool
		key    string // the member this container is the value of
	}
	stack := []frame{{}}
	var out []byte
	copied := 0
	key, wantKey := "", false
	for i := 0; i < len(doc); {
		switch doc[i] {
		case '{':
			stack = append(stack, frame{object: true, key: key})
			wantKey = true
			i++
		case '[':
			stack = append(stack, frame{key: key})
			i++
		case '}', ']':
			stack = stack[:len(stack)-1]
			i++
		case ',':
			if top := stack[len(stack)-1]; top.object {
				wantKey = true
			} else {
				key = top.key
			}
			i++
		case '"':
			end := stringEnd(doc, i)
			if stack[len(stack)-1].object && wantKey {
				key, wantKey = decodeLiteral(doc[i+1:end-1]), false
			} else if repl, ok := fn(key, doc[i:end]); ok {
				out = append(out, doc[copied:i]...)
				out = append(out, repl...)
				copied = end
			}
			i = end
		default:
			i++
		}
	}
	if out == nil {
		return doc
	}
	return append(out, doc[copied:]...)
}

// stringEnd is the index just past the string literal starting at doc[i].
func stringEnd(doc []byte, i int) int {
	j := i + 1
	for {
		q := bytes.IndexByte(doc[j:], '"')
		if q < 0 {
			return len(doc) // not reached for valid JSON
		}
		j += q
		// Escaped when preceded by an odd number of backslashes.
		n := 0
		for k := j - 1; k > i && doc[k] == '\\'; k-- {
			n++
		}
		j++
		if n%2 == 0 {
			return j
		}
	}
}

// decodeLiteral decodes the content of a JSON string literal (without its
// quotes).
func decodeLiteral(content []byte) string {
	if bytes.IndexByte(content, '\\') < 0 {
		return strings.ToValidUTF8(string(content), "\uFFFD")
	}
	lit := make([]byte, 0, len(content)+2)
	lit = append(append(append(lit, '"'), content...), '"')
	var s string
	if err := json.Unmarshal(lit, &s); err != nil {
		return strings.ToValidUTF8(string(content), "\uFFFD")
	}
	return s
}

// encodeString is s as a JSON string literal. HTML characters stay as they
// are: the log is not a web page, and "<" reads better than "\u003c".
func encodeString(s string) []byte {
	b, _ := jsonplain.Marshal(s) // a string always encodes
	return b
}
