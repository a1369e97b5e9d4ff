package jsonscan

import (
	"encoding/json"
	"strconv"
)

// The decoders below give the values json.Unmarshal gives into an any
// (nil, bool, float64, string, []any, map[string]any), so code written
// against those types works as before, with one exception for what
// encoding/json cannot decode: a value nested deeper than its limit, or
// a number beyond float64, stays a json.RawMessage of its bytes. Such a
// value is valid JSON; jsonplain encodes it as it is, and AsObject and
// AsArray open it one level at a time.

// Decode decodes one JSON value, with json.RawMessage for what
// encoding/json cannot decode (see above).
func Decode(data []byte) (any, error) {
	if err := Check(data); err != nil {
		return nil, err
	}
	start := skipSpace(data, 0)
	end := len(data)
	for end > start && isSpace(data[end-1]) {
		end--
	}
	return decodeValue(data[start:end]), nil
}

// DecodeObject decodes the fields of a JSON object, each as Decode does.
// JSON null gives a nil map and no error; anything else that is not an
// object is an error. A field that stays json.RawMessage shares data's
// bytes.
func DecodeObject(data []byte) (map[string]any, error) {
	m := map[string]any{}
	null, err := members(data, '{', 0, func(key, value []byte) {
		m[keyString(key)] = decodeValue(value)
	})
	if err != nil || null {
		return nil, err
	}
	return m, nil
}

// DecodeArray decodes the elements of a JSON array, each as Decode does.
// JSON null gives nil and no error; anything else that is not an array
// is an error.
func DecodeArray(data []byte) ([]any, error) {
	out := []any{}
	null, err := members(data, '[', 0, func(_, value []byte) {
		out = append(out, decodeValue(value))
	})
	if err != nil || null {
		return nil, err
	}
	return out, nil
}

// AsObject returns a decoded value as an object: a map[string]any as it
// is, a json.RawMessage object decoded one level (DecodeObject). ok is
// false for anything else.
func AsObject(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case json.RawMessage:
		m, err := DecodeObject(x)
		return m, err == nil && m != nil
	}
	return nil, false
}

// AsArray returns a decoded value as an array: a []any as it is, a
// json.RawMessage array decoded one level (DecodeArray). ok is false for
// anything else.
func AsArray(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case json.RawMessage:
		a, err := DecodeArray(x)
		return a, err == nil && a != nil
	}
	return nil, false
}

// String decodes a JSON string value as encoding/json does; ok is false
// for anything else, invalid JSON included.
func String(data []byte) (s string, ok bool) {
	start := skipSpace(data, 0)
	if start >= len(data) || data[start] != '"' {
		return "", false
	}
	end, err := skipString(data, start)
	if err != nil || skipSpace(data, end) != len(data) {
		return "", false
	}
	return unquote(data[start:end])
}

// decodeValue decodes one checked value with no whitespace around it.
func decodeValue(raw []byte) any {
	switch raw[0] {
	case '"':
		s, _ := unquote(raw)
		return s
	case 't':
		return true
	case 'f':
		return false
	case 'n':
		return nil
	case '{', '[':
		var v any
		if json.Unmarshal(raw, &v) != nil {
			return json.RawMessage(raw)
		}
		return v
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return json.RawMessage(raw)
	}
	return f
}
