package match

import (
	"strings"
	"unicode/utf8"
)

// Escapes are where dialects differ most: in JavaScript without the u
// flag, a backslash before a character with no escape meaning is the
// character itself, so \A, \z, \Q, \E, \C, \e, \p and \h are letters, and
// \x{41} is "x" repeated 41 times. Go and regexp2 read them otherwise.

// parseEscape parses a backslash escape outside a class (\b and \B are
// handled by the caller).
func (p *parser) parseEscape() (*node, error) {
	start := p.pos
	if p.pos+1 >= len(p.src) {
		return nil, p.errorf(start, `pattern ends with a lone \ (write \\ to match a backslash)`)
	}
	c := p.src[p.pos+1]
	switch {
	case strings.IndexByte("dDsSwW", c) >= 0:
		p.pos += 2
		set := &charSet{ranges: escapeRanges(c)}
		set.normalize()
		return &node{kind: kClass, set: set}, nil
	case c >= '1' && c <= '9':
		// A back reference if the pattern has that many groups; if not,
		// Annex B reads it as an octal escape, or \8 and \9 as digits.
		n, end, _ := digits(p.src, p.pos+1)
		if n <= p.ncap {
			p.pos = end
			return &node{kind: kBackref, capture: n}, nil
		}
	case c == 'k' && p.hasNames:
		return p.parseNamedBackref()
	}
	r, err := p.characterEscape(false)
	if err != nil {
		return nil, err
	}
	return literal(r), nil
}

// literal is the node for one character. A lone surrogate (\uD800) can
// never match a Go string, so it becomes a class that matches nothing.
func literal(r rune) *node {
	if r >= 0xd800 && r <= 0xdfff {
		return &node{kind: kClass, set: &charSet{}}
	}
	return &node{kind: kLiteral, r: r}
}

// parseNamedBackref parses \k<name> in a pattern that has named groups.
func (p *parser) parseNamedBackref() (*node, error) {
	start := p.pos
	p.pos += 2
	end := strings.IndexByte(p.src[p.pos:], '>')
	if !p.at("<") || end < 0 {
		return nil, p.errorf(start, `\k must be followed by <name> of a group when the pattern has named groups (write k alone to match the letter)`)
	}
	name := p.src[p.pos+1 : p.pos+end]
	n, ok := p.names[name]
	if !ok {
		return nil, p.errorf(start, "\\k<%s> refers to no group named %q", name, name)
	}
	p.pos += end + 1
	return &node{kind: kBackref, capture: n}, nil
}

// characterEscape parses an escape that stands for one character, at
// p.pos (the backslash), inside a class or not. \c followed by something
// that is not a control letter leaves the backslash as a literal.
func (p *parser) characterEscape(inClass bool) (rune, error) {
	s, i := p.src, p.pos+1
	c := s[i]
	switch c {
	case 'f':
		p.pos += 2
		return '\f', nil
	case 'n':
		p.pos += 2
		return '\n', nil
	case 'r':
		p.pos += 2
		return '\r', nil
	case 't':
		p.pos += 2
		return '\t', nil
	case 'v':
		p.pos += 2
		return '\v', nil
	case 'c':
		if i+1 < len(s) && isControlLetter(s[i+1], inClass) {
			p.pos += 3
			return rune(s[i+1]) % 32, nil
		}
		p.pos++ // the backslash alone; the c is read next as itself
		return '\\', nil
	case 'x':
		if v, ok := hex(s, i+1, 2); ok {
			p.pos += 4
			return v, nil
		}
	case 'u':
		if v, ok := hex(s, i+1, 4); ok {
			p.pos += 6
			// A UTF-16 pair written as two escapes is the character
			// they encode.
			if v >= 0xd800 && v <= 0xdbff && strings.HasPrefix(s[p.pos:], `\u`) {
				if lo, ok := hex(s, p.pos+2, 4); ok && lo >= 0xdc00 && lo <= 0xdfff {
					p.pos += 6
					return 0x10000 + (v-0xd800)<<10 + (lo - 0xdc00), nil
				}
			}
			return v, nil
		}
	case 'k':
		if p.hasNames { // only reached inside a class
			return 0, p.errorf(p.pos, `\k cannot be used in a character class when the pattern has named groups`)
		}
	}
	if c >= '0' && c <= '7' {
		return p.octal(), nil
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	p.pos += 1 + size
	return r, nil
}

// isControlLetter reports whether b may follow \c. Inside a class Annex B
// also takes digits and _.
func isControlLetter(b byte, inClass bool) bool {
	if b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' {
		return true
	}
	return inClass && (b >= '0' && b <= '9' || b == '_')
}

// octal parses a legacy octal escape (\0, \12, \377) at p.pos: at most
// three digits and at most 0377.
func (p *parser) octal() rune {
	s, i := p.src, p.pos+1
	v := rune(s[i] - '0')
	n := 1
	limit := 2
	if s[i] <= '3' {
		limit = 3
	}
	for n < limit && i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '7' {
		v = v*8 + rune(s[i+n]-'0')
		n++
	}
	p.pos += 1 + n
	return v
}

// hex reads exactly n hex digits at i.
func hex(s string, i, n int) (rune, bool) {
	if i+n > len(s) {
		return 0, false
	}
	var v rune
	for _, c := range []byte(s[i : i+n]) {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | rune(d)
	}
	return v, true
}
