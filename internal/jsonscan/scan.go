// Package jsonscan reads JSON without a nesting limit. encoding/json
// refuses documents nested deeper than 10000 levels, and a hook payload
// it cannot read would let the action through unjudged; the payload's
// tool input is the model's to write, so it may be nested that deep on
// purpose. The scanner here is iterative: it keeps the kinds of the open
// containers in a bit stack, so a document costs O(depth) bits of memory
// and no recursion whatever its depth.
//
// For every document encoding/json can read, the functions here agree
// with it: the same documents are valid, an object splits into the same
// fields, strings decode to the same text. Documents nested deeper are
// read too, where encoding/json would fail.
package jsonscan

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strconv"
)

// SyntaxError is a document that is not JSON.
type SyntaxError struct {
	// Offset is the byte at which the document stopped being JSON.
	Offset int64
	// TooDeep: the document is nested past the bound asked for, and may
	// be JSON nonetheless.
	TooDeep bool
	msg     string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s (at byte %d)", e.msg, e.Offset)
}

func syntaxErr(i int, format string, args ...any) error {
	return &SyntaxError{Offset: int64(i), msg: fmt.Sprintf(format, args...)}
}

func depthErr(i int) error {
	return &SyntaxError{Offset: int64(i), TooDeep: true, msg: "exceeded max depth"}
}

func eofErr(i int) error {
	return &SyntaxError{Offset: int64(i), msg: "unexpected end of JSON input"}
}

// quoteChar formats a byte for an error message, as encoding/json does.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(c))
	return "'" + s[1:len(s)-1] + "'"
}

// Valid reports whether data is one JSON value, with nothing but
// whitespace around it.
func Valid(data []byte) bool {
	return Check(data) == nil
}

// Check returns nil when data is one JSON value with nothing but
// whitespace around it, else a *SyntaxError saying where it is not.
func Check(data []byte) error {
	return check(data, stack{})
}

// CheckDepth is Check for a caller that must bound the nesting (code that
// walks a document with a stack of its own): a document nested deeper
// than depth levels is an error, as it is for encoding/json at 10000.
func CheckDepth(data []byte, depth int) error {
	return check(data, stack{limit: depth})
}

func check(data []byte, st stack) error {
	end, err := skipValue(data, skipSpace(data, 0), &st)
	if err != nil {
		return err
	}
	if i := skipSpace(data, end); i < len(data) {
		return syntaxErr(i, "invalid character %s after top-level value", quoteChar(data[i]))
	}
	return nil
}

// stack holds the kinds of the open containers, one bit each (1 for an
// object): the first 64 in a word, the rest in a slice grown as needed.
type stack struct {
	n     int
	limit int // the deepest nesting allowed; 0 for no bound
	base  int // open containers not on the stack (members' own)
	low   uint64
	high  []uint64
}

func (s *stack) push(object bool) {
	var bit uint64
	if object {
		bit = 1
	}
	if s.n < 64 {
		s.low = s.low&^(1<<s.n) | bit<<s.n
	} else {
		j := s.n - 64
		w, b := j/64, uint(j%64)
		if w == len(s.high) {
			s.high = append(s.high, 0)
		}
		s.high[w] = s.high[w]&^(1<<b) | bit<<b
	}
	s.n++
}

// object reports whether the innermost open container is an object.
func (s *stack) object() bool {
	j := s.n - 1
	if j < 64 {
		return s.low>>j&1 == 1
	}
	j -= 64
	return s.high[j/64]>>(j%64)&1 == 1
}

func (s *stack) pop() { s.n-- }

// full reports whether another container would pass the limit.
func (s *stack) full() bool { return s.limit > 0 && s.base+s.n >= s.limit }

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipValue checks the value that starts at data[i] and returns the
// index just after it. st must be empty; it is left empty.
func skipValue(data []byte, i int, st *stack) (int, error) {
	var err error
	for {
		// A value starts at i (after whitespace).
		i = skipSpace(data, i)
		if i >= len(data) {
			return i, eofErr(i)
		}
		opened := false
		// An empty container counts as a level too, as for encoding/json.
		switch c := data[i]; {
		case c == '{':
			if st.full() {
				return i, depthErr(i)
			}
			i = skipSpace(data, i+1)
			if i < len(data) && data[i] == '}' {
				i++
				break
			}
			if i, _, err = skipKey(data, i); err != nil {
				return i, err
			}
			st.push(true)
			opened = true
		case c == '[':
			if st.full() {
				return i, depthErr(i)
			}
			i = skipSpace(data, i+1)
			if i < len(data) && data[i] == ']' {
				i++
				break
			}
			st.push(false)
			opened = true
		case c == '"':
			i, err = skipString(data, i)
		case c == 't':
			i, err = skipLiteral(data, i, "true")
		case c == 'f':
			i, err = skipLiteral(data, i, "false")
		case c == 'n':
			i, err = skipLiteral(data, i, "null")
		case c == '-' || '0' <= c && c <= '9':
			i, err = skipNumber(data, i)
		default:
			return i, syntaxErr(i, "invalid character %s looking for beginning of value", quoteChar(c))
		}
		if err != nil {
			return i, err
		}
		if opened {
			continue
		}
		// A value ended at i: close the containers it ends, up to the
		// next element.
		next := false
		for !next {
			if st.n == 0 {
				return i, nil
			}
			i = skipSpace(data, i)
			if i >= len(data) {
				return i, eofErr(i)
			}
			c, obj := data[i], st.object()
			switch {
			case c == ',':
				i++
				if obj {
					if i, _, err = skipKey(data, skipSpace(data, i)); err != nil {
						return i, err
					}
				}
				next = true
			case obj && c == '}', !obj && c == ']':
				i++
				st.pop()
			case obj:
				return i, syntaxErr(i, "invalid character %s after object key:value pair", quoteChar(c))
			default:
				return i, syntaxErr(i, "invalid character %s after array element", quoteChar(c))
			}
		}
	}
}

// skipKey checks an object's key and its colon at data[i] and returns the
// index after the colon and the index after the key's closing quote.
func skipKey(data []byte, i int) (next, keyEnd int, err error) {
	if i >= len(data) {
		return i, 0, eofErr(i)
	}
	if data[i] != '"' {
		return i, 0, syntaxErr(i, "invalid character %s looking for beginning of object key string", quoteChar(data[i]))
	}
	if keyEnd, err = skipString(data, i); err != nil {
		return keyEnd, 0, err
	}
	i = skipSpace(data, keyEnd)
	if i >= len(data) {
		return i, 0, eofErr(i)
	}
	if data[i] != ':' {
		return i, 0, syntaxErr(i, "invalid character %s after object key", quoteChar(data[i]))
	}
	return i + 1, keyEnd, nil
}

// plain marks the bytes a string holds as they are: not the quote, the
// backslash or a control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// skipString checks the string that starts at data[i] (a quote) and
// returns the index after its closing quote. Bytes above 0x7f are taken
// as they are, as encoding/json takes them.
func skipString(data []byte, i int) (int, error) {
	j := i + 1
	for {
		j = plainRun(data, j)
		if j >= len(data) {
			return j, eofErr(j)
		}
		switch c := data[j]; c {
		case '"':
			return j + 1, nil
		case '\\':
			j++
			if j >= len(data) {
				return j, eofErr(j)
			}
			switch data[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				j++
				for k := 0; k < 4; k++ {
					if j >= len(data) {
						return j, eofErr(j)
					}
					if !isHex(data[j]) {
						return j, syntaxErr(j, `invalid character %s in \u hexadecimal character escape`, quoteChar(data[j]))
					}
					j++
				}
			default:
				return j, syntaxErr(j, "invalid character %s in string escape code", quoteChar(data[j]))
			}
		default:
			return j, syntaxErr(j, "invalid character %s in string literal", quoteChar(c))
		}
	}
}

// plainRun returns the index of the first byte at or after j that is not
// plain, or len(data). Most of a string is plain bytes: they are tested
// 32 at a time (four words at once keep the processor's units busy; a
// file's content goes at several GB/s), and the first byte that is not is
// found from the flags of its word, not by going back over it.
func plainRun(data []byte, j int) int {
	for j+32 <= len(data) {
		w := data[j : j+32]
		a, b := notPlain(binary.LittleEndian.Uint64(w)), notPlain(binary.LittleEndian.Uint64(w[8:]))
		c, d := notPlain(binary.LittleEndian.Uint64(w[16:])), notPlain(binary.LittleEndian.Uint64(w[24:]))
		switch {
		case a|b|c|d == 0:
			j += 32
			continue
		case a != 0:
			return j + firstFlagged(a)
		case b != 0:
			return j + 8 + firstFlagged(b)
		case c != 0:
			return j + 16 + firstFlagged(c)
		default:
			return j + 24 + firstFlagged(d)
		}
	}
	for j+8 <= len(data) {
		if t := notPlain(binary.LittleEndian.Uint64(data[j:])); t != 0 {
			return j + firstFlagged(t)
		}
		j += 8
	}
	for j < len(data) && plain[data[j]] {
		j++
	}
	return j
}

// firstFlagged is the position in its word of the first byte notPlain
// flags. A borrow only runs upwards, so the lowest flag is always exact.
func firstFlagged(t uint64) int { return bits.TrailingZeros64(t) / 8 }

// notPlain is zero when the eight bytes of x are all plain: none a quote,
// a backslash or a control character. Each test is the classic "has a
// zero byte" on a word: a byte below the one subtracted borrows into its
// high bit, and no byte that passes can borrow, so the answer is exact.
func notPlain(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := x^(ones*'"'), x^(ones*'\\')
	t := (x - ones*0x20) & ^x
	t |= (quote - ones) & ^quote
	t |= (backslash - ones) & ^backslash
	return t & highs
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// skipLiteral checks true, false or null at data[i].
func skipLiteral(data []byte, i int, lit string) (int, error) {
	for k := 1; k < len(lit); k++ {
		j := i + k
		if j >= len(data) {
			return j, eofErr(j)
		}
		if data[j] != lit[k] {
			return j, syntaxErr(j, "invalid character %s in literal %s (expecting '%c')", quoteChar(data[j]), lit, lit[k])
		}
	}
	return i + len(lit), nil
}

// skipNumber checks the number at data[i] (JSON's grammar: -?int frac?
// exp?) and returns the index after it; what follows is the caller's to
// judge.
func skipNumber(data []byte, i int) (int, error) {
	j := i
	if data[j] == '-' {
		j++
		if j >= len(data) {
			return j, eofErr(j)
		}
		if !isDigit(data[j]) {
			return j, syntaxErr(j, "invalid character %s in numeric literal", quoteChar(data[j]))
		}
	}
	if data[j] == '0' {
		j++
	} else {
		for j < len(data) && isDigit(data[j]) {
			j++
		}
	}
	if j < len(data) && data[j] == '.' {
		j++
		if j >= len(data) {
			return j, eofErr(j)
		}
		if !isDigit(data[j]) {
			return j, syntaxErr(j, "invalid character %s after decimal point in numeric literal", quoteChar(data[j]))
		}
		for j < len(data) && isDigit(data[j]) {
			j++
		}
	}
	if j < len(data) && (data[j] == 'e' || data[j] == 'E') {
		j++
		if j < len(data) && (data[j] == '+' || data[j] == '-') {
			j++
		}
		if j >= len(data) {
			return j, eofErr(j)
		}
		if !isDigit(data[j]) {
			return j, syntaxErr(j, "invalid character %s in exponent of numeric literal", quoteChar(data[j]))
		}
		for j < len(data) && isDigit(data[j]) {
			j++
		}
	}
	return j, nil
}
