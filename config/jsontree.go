package config

import (
	"strconv"
)

// The JSON tree keeps the byte offset of every value and key, which
// encoding/json does not expose; problems are reported at line:column.

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// String names the kind the way a message says it: "got a string".
func (k jsonKind) String() string {
	switch k {
	case jsonNull:
		return "null"
	case jsonBool:
		return "a boolean"
	case jsonNumber:
		return "a number"
	case jsonString:
		return "a string"
	case jsonArray:
		return "an array"
	default:
		return "an object"
	}
}

// jsonNode is one JSON value and where it sits in the file.
type jsonNode struct {
	kind     jsonKind
	off, end int    // byte offsets of the value's first byte and just past its last
	str      string // decoded text of a string; the literal text of a number
	boolean  bool
	elems    []*jsonNode
	members  []jsonMember // in document order; of duplicate keys only the last is kept
}

type jsonMember struct {
	key    string
	keyOff int
	value  *jsonNode
}

// get returns the member named key.
func (n *jsonNode) get(key string) (jsonMember, bool) {
	for _, m := range n.members {
		if m.key == key {
			return m, true
		}
	}
	return jsonMember{}, false
}

// number returns the value of a number node. Out-of-range values come
// back as ±Inf or 0, which every caller rejects as out of bounds.
func (n *jsonNode) number() float64 {
	f, _ := strconv.ParseFloat(n.str, 64)
	return f
}

// describe shows a value in a message: numbers, booleans and null as
// written, strings quoted (and shortened), containers by kind.
func (n *jsonNode) describe() string {
	switch n.kind {
	case jsonNumber:
		return shorten(n.str)
	case jsonBool:
		return strconv.FormatBool(n.boolean)
	case jsonString:
		return strconv.Quote(shorten(n.str))
	default:
		return n.kind.String()
	}
}

// shorten keeps messages one line long when a value is huge.
func shorten(s string) string {
	const max = 40
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
