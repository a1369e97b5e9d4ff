// Package jsonplain encodes JSON as JavaScript's JSON.stringify does:
// without escaping <, > and &. Hooks grep their stdin for `2>&1`, and
// settings files people read should say & where they mean it.
//
// json.RawMessage values inside maps and slices are written as they are
// (compacted), whatever their depth: encoding/json checks every
// RawMessage with its scanner, which refuses nesting deeper than 10000
// levels, and a hook payload carries a tool input the model wrote.
package jsonplain

import (
	"encoding/json"
	"io"

	"github.com/agenthooks/agenthooks/internal/jsonscan"
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
	e := newWalker()
	if err := e.value(v, 0); err != nil {
		return nil, err
	}
	return e.out.b, nil
}

// MarshalIndent is json.MarshalIndent without HTML escaping.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	b, err := Marshal(v)
	if err != nil || (indent == "" && prefix == "") {
		return b, err
	}
	return jsonscan.AppendIndent(make([]byte, 0, 2*len(b)), b, prefix, indent)
}
