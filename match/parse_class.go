package match

import (
	"strings"
	"unicode/utf8"
)

// parseClass parses [...] into a set of code point ranges. In JavaScript
// the first ] always closes the class, so [] matches nothing and [^]
// matches any character; a [ inside is a literal, which is also why the
// POSIX [[:alpha:]] of Go is, in JavaScript, the class [[:alph] followed
// by a literal ].
func (p *parser) parseClass() (*node, error) {
	start := p.pos
	p.pos++
	set := &charSet{}
	if p.at("^") {
		set.negate = true
		p.pos++
	}
	for {
		if p.done() {
			return nil, p.errorf(start, "missing closing ] of the character class")
		}
		if p.peek() == ']' {
			p.pos++
			break
		}
		from := p.pos
		a, aSet, err := p.classAtom()
		if err != nil {
			return nil, err
		}
		if !p.at("-") || p.pos+1 >= len(p.src) || p.src[p.pos+1] == ']' {
			set.addAtom(a, aSet)
			continue
		}
		p.pos++ // -
		b, bSet, err := p.classAtom()
		if err != nil {
			return nil, err
		}
		if aSet != nil || bSet != nil {
			// Annex B: a range with \d, \s or \w at either end is
			// the two classes and a literal -.
			set.addAtom(a, aSet)
			set.add('-', '-')
			set.addAtom(b, bSet)
			continue
		}
		if a > b {
			return nil, p.errorf(from, "range out of order in character class: %s", p.src[from:p.pos])
		}
		set.add(a, b)
	}
	set.normalize()
	return &node{kind: kClass, set: set}, nil
}

// addAtom adds a class member: the ranges of a class escape if it was
// one, else the character.
func (s *charSet) addAtom(r rune, esc []runeRange) {
	if esc != nil {
		s.ranges = append(s.ranges, esc...)
		return
	}
	s.add(r, r)
}

// classAtom parses one member of a class: a character, or a class escape
// (\d, \s, \w and their negations), returned as its ranges.
func (p *parser) classAtom() (r rune, esc []runeRange, err error) {
	if p.peek() != '\\' {
		r, size := utf8.DecodeRuneInString(p.src[p.pos:])
		p.pos += size
		return r, nil, nil
	}
	if p.pos+1 >= len(p.src) {
		return 0, nil, p.errorf(p.pos, `pattern ends with a lone \ (write \\ to match a backslash)`)
	}
	switch c := p.src[p.pos+1]; {
	case strings.IndexByte("dDsSwW", c) >= 0:
		p.pos += 2
		return 0, escapeRanges(c), nil
	case c == 'b': // backspace, inside a class only
		p.pos += 2
		return '\b', nil, nil
	case c == '-':
		p.pos += 2
		return '-', nil, nil
	}
	r, err = p.characterEscape(true)
	return r, nil, err
}
