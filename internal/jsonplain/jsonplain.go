// Package jsonplain encodes JSON as JavaScript's JSON.stringify does:
// without escaping <, > and &. Hooks grep their stdin for `2>&1`, and
// settings files people read should say & where they mean it.
package jsonplain

import (
	"bytes"
	"encoding/json"
	"io"
)

// NewEncoder is json.NewEncoder without HTML escaping: each Encode writes
// one value and a newline to w.
func NewEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// Marshal encodes v on one line, with no trailing newline.
func Marshal(v any) ([]byte, error) {
	return MarshalIndent(v, "", "")
}

// MarshalIndent is json.MarshalIndent without HTML escaping.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := NewEncoder(&b)
	if indent != "" || prefix != "" {
		enc.SetIndent(prefix, indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
