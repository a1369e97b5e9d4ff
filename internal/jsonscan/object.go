package jsonscan

import (
	"encoding/json"
	"errors"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Object splits a JSON object into its fields, as json.Unmarshal into a
// map[string]json.RawMessage does: keys decoded, the last of a repeated
// key kept, each value's bytes as they are. The values are sub-slices of
// data, not copies: data must not change while they are in use.
//
// JSON null gives a nil map and no error, as json.Unmarshal leaves the
// map nil. Anything else that is not an object is an error.
func Object(data []byte) (map[string]json.RawMessage, error) {
	return ObjectDepth(data, 0)
}

// ObjectDepth is Object for a caller that must bound the nesting, as
// CheckDepth does: the object itself is one level, and a document nested
// deeper than depth levels is an error. Zero means no bound.
func ObjectDepth(data []byte, depth int) (map[string]json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	null, err := members(data, '{', depth, func(key, value []byte) {
		m[keyString(key)] = value
	})
	if err != nil || null {
		return nil, err
	}
	return m, nil
}

// Array splits a JSON array into its elements, the bytes of each as they
// are (sub-slices of data). JSON null gives nil and no error; anything
// else that is not an array is an error.
func Array(data []byte) ([]json.RawMessage, error) {
	out := []json.RawMessage{}
	null, err := members(data, '[', 0, func(_, value []byte) {
		out = append(out, value)
	})
	if err != nil || null {
		return nil, err
	}
	return out, nil
}

// members walks the top level of an object ('{') or an array ('['),
// calling each for every member (key is nil in an array), nested at most
// depth levels in all (0: no bound). null reports that data is JSON null.
func members(data []byte, open byte, depth int, each func(key, value []byte)) (null bool, err error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != open {
		return notA(data, i, open)
	}
	close := byte(']')
	if open == '{' {
		close = '}'
	}
	st := stack{limit: depth, base: 1}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == close {
		i++
	} else {
		for {
			var key []byte
			if open == '{' {
				k, kEnd := i, 0
				if i, kEnd, err = skipKey(data, i); err != nil {
					return false, err
				}
				key = data[k:kEnd]
			}
			start := skipSpace(data, i)
			if i, err = skipValue(data, start, &st); err != nil {
				return false, err
			}
			each(key, data[start:i])
			i = skipSpace(data, i)
			if i >= len(data) {
				return false, eofErr(i)
			}
			if data[i] == close {
				i++
				break
			}
			if data[i] != ',' {
				what := "after array element"
				if open == '{' {
					what = "after object key:value pair"
				}
				return false, syntaxErr(i, "invalid character %s %s", quoteChar(data[i]), what)
			}
			i = skipSpace(data, i+1)
		}
	}
	if i = skipSpace(data, i); i < len(data) {
		return false, syntaxErr(i, "invalid character %s after top-level value", quoteChar(data[i]))
	}
	return false, nil
}

// notA is the answer of members to a document that does not start with
// the container it wants: null is no error, invalid JSON its syntax
// error, anything else a type error.
func notA(data []byte, i int, open byte) (bool, error) {
	if err := Check(data); err != nil {
		return false, err
	}
	if data[i] == 'n' {
		return true, nil
	}
	want := "a JSON object"
	if open == '[' {
		want = "a JSON array"
	}
	return false, errors.New("not " + want + ": it is " + kindName(data[i]))
}

// kindName names the kind of the value that starts with c.
func kindName(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// keyString decodes a quoted key. Most keys are plain ASCII and need no
// decoding.
func keyString(quoted []byte) string {
	s, _ := unquote(quoted)
	return s
}

// unquote decodes a checked JSON string (quotes included) as
// encoding/json does: escapes resolved, a lone or broken UTF-16
// surrogate and every byte that is not UTF-8 replaced by U+FFFD.
func unquote(quoted []byte) (string, bool) {
	if len(quoted) < 2 || quoted[0] != '"' || quoted[len(quoted)-1] != '"' {
		return "", false
	}
	s := quoted[1 : len(quoted)-1]
	r := 0
	for r < len(s) {
		c := s[r]
		if c == '\\' || c == '"' || c < ' ' {
			break
		}
		if c < utf8.RuneSelf {
			r++
			continue
		}
		rr, size := utf8.DecodeRune(s[r:])
		if rr == utf8.RuneError && size == 1 {
			break
		}
		r += size
	}
	if r == len(s) {
		return string(s), true
	}
	b := make([]byte, 0, len(s)+2*utf8.UTFMax)
	b = append(b, s[:r]...)
	for r < len(s) {
		switch c := s[r]; {
		case c == '\\':
			r++
			if r >= len(s) {
				return "", false
			}
			switch e := s[r]; e {
			case '"', '\\', '/', '\'':
				b = append(b, e)
				r++
			case 'b':
				b = append(b, '\b')
				r++
			case 'f':
				b = append(b, '\f')
				r++
			case 'n':
				b = append(b, '\n')
				r++
			case 'r':
				b = append(b, '\r')
				r++
			case 't':
				b = append(b, '\t')
				r++
			case 'u':
				rr := getu4(s[r-1:])
				if rr < 0 {
					return "", false
				}
				r += 5
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, getu4(s[r:])); dec != unicode.ReplacementChar {
						r += 6
						b = utf8.AppendRune(b, dec)
						break
					}
					rr = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, rr)
			default:
				return "", false
			}
		case c == '"', c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			b = append(b, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			r += size
			b = utf8.AppendRune(b, rr)
		}
	}
	return string(b), true
}

// getu4 decodes the \uXXXX escape at the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
