package state

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// capMargin is how much more than its cap is decoded of a string that
// will be cut, and searched for secrets: a secret that starts before the
// cut and is shorter than this is found whole, and the cut is moved
// before it. Longer secrets (private keys, JWTs, assignment values) have
// patterns that match to the end of the text.
const capMargin = 2048

// cutMarker ends a cut string: how many bytes were left out.
func cutMarker(n int) string { return fmt.Sprintf("…[cut %d bytes]", n) }

// cutString is s's first limit bytes, or fewer so as to end at a
// character boundary and before any span that would be cut in two, with
// the spans inside it rendered, followed by the cut marker for the rest of
// the total bytes.
func cutString(s string, total, limit int, spans []span) string {
	c := min(limit, len(s))
	for c > 0 && c < len(s) && !utf8.RuneStart(s[c]) {
		c--
	}
	var kept []span
	for _, sp := range spans {
		if sp.start >= c {
			break
		}
		if sp.end > c {
			c = sp.start
			break
		}
		kept = append(kept, sp)
	}
	return renderSpans(s[:c], kept) + cutMarker(total-c)
}

// decodePrefix decodes the content of a JSON string literal (without its
// quotes) that may be huge: at least want bytes of it when it has that
// many, else all of it. It returns the decoded text, the length of the
// whole decoded string and whether the text is all of it.
func decodePrefix(content []byte, want int) (string, int, bool) {
	for k := want; ; k *= 2 {
		if k >= len(content) {
			s := decodeLiteral(content)
			return s, len(s), true
		}
		s := decodeLiteral(content[:safeCut(content, k)])
		if len(s) >= want {
			return s, decodedLen(content), false
		}
	}
}

// safeCut moves k back so that content[:k] splits neither an escape
// sequence nor a UTF-8 character.
func safeCut(content []byte, k int) int {
	for i := 0; i < k; {
		j := bytes.IndexByte(content[i:k], '\\')
		if j < 0 {
			break
		}
		i += j
		n := 2
		if i+1 < len(content) && content[i+1] == 'u' {
			n = 6
		}
		if i+n > k {
			k = i
			break
		}
		i += n
	}
	for k > 0 && k < len(content) && !utf8.RuneStart(content[k]) {
		k--
	}
	return k
}

// decodedLen is the length in bytes of the decoded content of a JSON
// string literal (valid JSON), without decoding it.
func decodedLen(c []byte) int {
	n := 0
	for {
		i := bytes.IndexByte(c, '\\')
		if i < 0 || i+1 >= len(c) {
			return n + len(c)
		}
		n += i
		c = c[i:]
		if c[1] != 'u' || len(c) < 6 {
			n++
			c = c[2:]
			continue
		}
		r := hexRune(c[2:6])
		c = c[6:]
		if utf16.IsSurrogate(r) && len(c) >= 6 && c[0] == '\\' && c[1] == 'u' {
			if pair := utf16.DecodeRune(r, hexRune(c[2:6])); pair != utf8.RuneError {
				n += utf8.RuneLen(pair)
				c = c[6:]
				continue
			}
		}
		if utf16.IsSurrogate(r) {
			r = utf8.RuneError
		}
		n += utf8.RuneLen(r)
	}
}

func hexRune(h []byte) rune {
	v, err := strconv.ParseUint(string(h), 16, 32)
	if err != nil {
		return utf8.RuneError
	}
	return rune(v)
}
