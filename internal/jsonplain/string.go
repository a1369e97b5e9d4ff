package jsonplain

import (
	"slices"
	"unicode/utf8"
)

// appendString appends s as a JSON string exactly as encoding/json writes
// it without HTML escaping: ", \ and control characters escaped (\b, \f,
// \n, \r, \t by name, the rest as \u00XX), invalid UTF-8 as \ufffd, and
// U+2028 and U+2029 as \u2028 and \u2029. Written here because strings
// are most of a payload's bytes (a whole file for beforeReadFile), and
// encoding/json copies them through a buffer of its own: appending in
// place, into a buffer grown once, eight plain bytes at a time, is
// several times faster.
func appendString(dst []byte, s string) []byte {
	// Room for the usual escapes too, so that a large string is not
	// copied again when the buffer would double.
	dst = slices.Grow(dst, len(s)+len(s)/8+2)
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Plain ASCII, eight bytes at a time, as one 64-bit word x:
		// (v-ones)&^v has a high bit set in the lowest byte of v that is
		// zero, so applied to x^'"' and x^'\\' it finds those bytes;
		// x-0x20*ones sets the high bit of the lowest byte below 0x20
		// (borrowing into the ones above it); x's own high bits are the
		// bytes from 0x80 on. None set: all eight stay as they are.
		for ; i+8 <= len(s); i += 8 {
			x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			q, bs := x^'"'*ones, x^'\\'*ones
			if ((x-0x20*ones)|x|(q-ones)&^q|(bs-ones)&^bs)&highs != 0 {
				break
			}
		}
		// A byte to look at is among the next eight (or the string ends).
		for i < len(s) && safe[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		if b := s[i]; b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const ones, highs = 0x0101010101010101, 0x8080808080808080

const hex = "0123456789abcdef"

// safe marks the ASCII bytes a JSON string holds as they are.
var safe = func() (t [256]bool) {
	for b := ' '; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()
