package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"

	"github.com/agenthooks/agenthooks/internal/jsonscan"
	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// The payload is decoded lazily: most shell policies read only the
// command line, and decoding a whole payload into a map costs more than
// evaluating a policy. topField finds one top-level value without
// decoding the rest; `input` is decoded in full only when a condition
// reads it.

var errNotObject = errors.New("the payload is not a JSON object")

// topField returns the raw JSON value of key in the object doc (the last
// one, as JSON.parse keeps, when the key is repeated). doc must be valid
// JSON; on anything unexpected it reports not found.
func topField(doc []byte, key string) ([]byte, bool) {
	i := skipWS(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return nil, false
	}
	i++
	var found []byte
	ok := false
	for {
		i = skipWS(doc, i)
		if i >= len(doc) {
			return found, ok
		}
		if doc[i] == '}' {
			return found, ok
		}
		if doc[i] == ',' {
			i++
			continue
		}
		if doc[i] != '"' {
			return nil, false
		}
		kEnd := skipString(doc, i)
		if kEnd < 0 {
			return nil, false
		}
		k := doc[i:kEnd]
		i = skipWS(doc, kEnd)
		if i >= len(doc) || doc[i] != ':' {
			return nil, false
		}
		i = skipWS(doc, i+1)
		vEnd := skipValue(doc, i)
		if vEnd < 0 {
			return nil, false
		}
		if keyIs(k, key) {
			found, ok = doc[i:vEnd], true
		}
		i = vEnd
	}
}

// keyIs compares a quoted JSON key with key, decoding escapes only when
// there are any.
func keyIs(quoted []byte, key string) bool {
	if bytes.IndexByte(quoted, '\\') < 0 {
		return len(quoted) == len(key)+2 && string(quoted[1:len(quoted)-1]) == key
	}
	var s string
	return json.Unmarshal(quoted, &s) == nil && s == key
}

// jsonString decodes a raw JSON string value; ok is false for anything
// else.
func jsonString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func skipWS(doc []byte, i int) int {
	for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' || doc[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at doc[i].
func skipString(doc []byte, i int) int {
	for j := i + 1; j < len(doc); j++ {
		switch doc[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index after the value starting at doc[i].
func skipValue(doc []byte, i int) int {
	if i >= len(doc) {
		return -1
	}
	switch doc[i] {
	case '"':
		return skipString(doc, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(doc); j++ {
			switch doc[j] {
			case '"':
				end := skipString(doc, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default: // number, true, false, null
		j := i
		for j < len(doc) && doc[j] != ',' && doc[j] != '}' && doc[j] != ']' &&
			doc[j] != ' ' && doc[j] != '\t' && doc[j] != '\n' && doc[j] != '\r' {
			j++
		}
		return j
	}
}

// commandOfJSON is commandOf for a payload not decoded yet.
func commandOfJSON(step stepKind, doc []byte) string {
	switch step {
	case stepShell:
		if raw, ok := topField(doc, "command"); ok {
			s, _ := jsonString(raw)
			return s
		}
	case stepTool:
		raw, ok := topField(doc, "tool_input")
		if !ok {
			return ""
		}
		if s, isStr := jsonString(raw); isStr {
			raw = []byte(s) // some hosts send the tool input as a JSON string
		}
		if !jsonscan.Valid(raw) { // a deep tool input still has its command
			return ""
		}
		if c, ok := topField(raw, "command"); ok {
			s, _ := jsonString(c)
			return s
		}
	}
	return ""
}

// dirOfJSON is dirOf for a payload not decoded yet.
func dirOfJSON(doc []byte) string {
	var cwd, wd string
	if raw, ok := topField(doc, "cwd"); ok {
		cwd, _ = jsonString(raw)
	}
	if raw, ok := topField(doc, "tool_input"); ok {
		if s, isStr := jsonString(raw); isStr {
			raw = []byte(s) // some hosts send the tool input as a JSON string
		}
		if jsonscan.Valid(raw) { // a deep tool input still has its directory
			if w, ok := topField(raw, "working_directory"); ok {
				wd, _ = jsonString(w)
			}
		}
	}
	return commandDir(cwd, wd)
}

// dirOf is the absolute directory a payload's command line starts in:
// the Shell tool's working_directory (preToolUse), else the payload's
// cwd; "" when neither is absolute.
func dirOf(input map[string]any) string {
	cwd, _ := input["cwd"].(string)
	var wd string
	switch ti := input["tool_input"].(type) {
	case map[string]any:
		wd, _ = ti["working_directory"].(string)
	case string:
		var m map[string]any
		if json.Unmarshal([]byte(ti), &m) == nil {
			wd, _ = m["working_directory"].(string)
		}
	}
	return commandDir(cwd, wd)
}

func commandDir(cwd, wd string) string {
	dir := cwd
	if wd != "" {
		dir = shellscan.JoinDir(cwd, wd)
	}
	if !filepath.IsAbs(dir) {
		return ""
	}
	return filepath.Clean(dir)
}
