package match

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The parser follows ECMA-262's pattern grammar without the u flag,
// including Annex B (what browsers and Node actually accept): a lone {
// or ] is a literal, \A or \z is the letter itself, \1 without a group
// 1 is an octal escape, and so on. It rejects what JavaScript rejects,
// so a matcher that works in Cursor works here and one that fails there
// fails here with a plain message. One deliberate extension: inline
// flags, (?i) and the ES2025 (?i-s:...) form, for i, m and s.
//
// One deliberate difference: JavaScript without the u flag sees a
// character outside the BMP (an emoji) as two UTF-16 halves; here it is
// one character, as the user who typed it meant.

// maxDepth bounds group nesting, as Go's regexp does, so that a hostile
// pattern cannot exhaust the stack.
const maxDepth = 1000

type parser struct {
	src      string
	pos      int            // byte offset of the next character
	ncap     int            // capturing groups in the whole pattern
	names    map[string]int // group name → capture number
	hasNames bool           // any (?<name>...): \k is then a reference
	seen     int            // capturing groups opened so far
	defined  map[string]bool
	flags    flags // inline flags in scope
	depth    int
}

// parse parses a JavaScript pattern into a tree.
func parse(src string) (*node, error) {
	p := &parser{src: src, names: map[string]int{}, defined: map[string]bool{}}
	p.prescan()
	n, err := p.parseAlternation()
	if err != nil {
		return nil, err
	}
	if !p.done() { // only a ')' stops the top level early
		return nil, p.errorf(p.pos, "unmatched ) with no ( before it")
	}
	return n, nil
}

// prescan counts the capturing groups and collects group names, because
// both decide how escapes before the group are read: \2 is a back
// reference only if the pattern has two groups anywhere, and \k is a
// named reference only if the pattern has any named group.
func (p *parser) prescan() {
	s := p.src
	inClass := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\':
			i++
		case inClass:
			inClass = s[i] != ']'
		case s[i] == '[':
			inClass = true
		case s[i] == '(' && !strings.HasPrefix(s[i:], "(?"):
			p.ncap++
		case strings.HasPrefix(s[i:], "(?<") && !strings.HasPrefix(s[i:], "(?<=") && !strings.HasPrefix(s[i:], "(?<!"):
			p.ncap++
			p.hasNames = true
			if end := strings.IndexByte(s[i+3:], '>'); end >= 0 {
				if name := s[i+3 : i+3+end]; p.names[name] == 0 {
					p.names[name] = p.ncap
				}
			}
		}
	}
}

func (p *parser) done() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte { return p.src[p.pos] }

// at reports whether the pattern continues with s.
func (p *parser) at(s string) bool { return strings.HasPrefix(p.src[p.pos:], s) }

func (p *parser) errorf(offset int, format string, args ...any) error {
	return &SyntaxError{Pattern: p.src, Offset: offset, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) parseAlternation() (*node, error) {
	var alts []*node
	for {
		c, err := p.parseConcat()
		if err != nil {
			return nil, err
		}
		alts = append(alts, c)
		if p.done() || p.peek() != '|' {
			break
		}
		p.pos++
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &node{kind: kAlternate, subs: alts}, nil
}

func (p *parser) parseConcat() (*node, error) {
	n := &node{kind: kConcat}
	for !p.done() && p.peek() != '|' && p.peek() != ')' {
		t, err := p.parseTerm()
		if err != nil {
			return nil, err
		}
		n.subs = append(n.subs, t)
	}
	return n, nil
}

// parseTerm parses one atom or assertion and the quantifier after it.
func (p *parser) parseTerm() (*node, error) {
	start := p.pos
	atom, repeatable, err := p.parseAtom()
	if err != nil {
		return nil, err
	}
	qstart := p.pos
	lo, hi, ok, err := p.parseQuantifier()
	if err != nil || !ok {
		return atom, err
	}
	if !repeatable {
		if atom.kind == kLook {
			return nil, p.errorf(qstart, "a lookbehind %s cannot be repeated", p.src[start:qstart])
		}
		return nil, p.errorf(qstart, "%q has nothing to repeat: %s is not a character, class or group", p.src[qstart:p.pos], p.src[start:qstart])
	}
	n := &node{kind: kRepeat, min: lo, max: hi, subs: []*node{atom}}
	if !p.done() && p.peek() == '?' {
		n.lazy = true
		p.pos++
	}
	return n, nil
}

// parseAtom parses what may precede a quantifier, and reports whether it
// may be repeated at all (JavaScript rejects ^*, \b+ and (?<=a)?).
func (p *parser) parseAtom() (n *node, repeatable bool, err error) {
	switch c := p.peek(); c {
	case '^':
		p.pos++
		return &node{kind: kBegin, flags: p.flags}, false, nil
	case '$':
		p.pos++
		return &node{kind: kEnd, flags: p.flags}, false, nil
	case '.':
		p.pos++
		return &node{kind: kAny, flags: p.flags}, true, nil
	case '(':
		return p.parseGroup()
	case '[':
		n, err := p.parseClass()
		return n, true, err
	case '\\':
		if p.at(`\b`) || p.at(`\B`) {
			k := kWordBoundary
			if p.at(`\B`) {
				k = kNotWordBoundary
			}
			p.pos += 2
			return &node{kind: k, flags: p.flags}, false, nil
		}
		n, err := p.parseEscape()
		return n, true, err
	case '*':
		return nil, false, p.errorf(p.pos, `"*" has nothing to repeat (a matcher is a regular expression, not a glob: write .* for anything, \* for a literal *)`)
	case '+', '?':
		return nil, false, p.errorf(p.pos, "%q has nothing to repeat (write \\%c to match it literally)", string(c), c)
	case '{':
		if _, _, end, ok := p.braced(p.pos); ok {
			return nil, false, p.errorf(p.pos, "%q has nothing to repeat", p.src[p.pos:end])
		}
	}
	// Any other character, including a lone ], { or }, stands for itself.
	r, size := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += size
	return &node{kind: kLiteral, r: r}, true, nil
}

// parseQuantifier parses *, +, ? or {n}, {n,}, {n,m} if one is next.
func (p *parser) parseQuantifier() (lo, hi int, ok bool, err error) {
	if p.done() {
		return 0, 0, false, nil
	}
	switch p.peek() {
	case '*':
		p.pos++
		return 0, -1, true, nil
	case '+':
		p.pos++
		return 1, -1, true, nil
	case '?':
		p.pos++
		return 0, 1, true, nil
	case '{':
		lo, hi, end, ok := p.braced(p.pos)
		if !ok {
			return 0, 0, false, nil
		}
		if hi >= 0 && hi < lo {
			return 0, 0, false, p.errorf(p.pos, "numbers out of order in %s: the minimum is larger than the maximum", p.src[p.pos:end])
		}
		p.pos = end
		return lo, hi, true, nil
	}
	return 0, 0, false, nil
}

// braced reads {n}, {n,} or {n,m} at i. Anything else starting with { is
// a literal brace in JavaScript (Annex B), so it is not an error here.
func (p *parser) braced(i int) (lo, hi, end int, ok bool) {
	s := p.src
	i++ // {
	lo, i, ok = digits(s, i)
	if !ok {
		return 0, 0, 0, false
	}
	hi = lo
	if i < len(s) && s[i] == ',' {
		i++
		hi = -1
		if m, j, ok := digits(s, i); ok {
			hi, i = m, j
		}
	}
	if i >= len(s) || s[i] != '}' {
		return 0, 0, 0, false
	}
	return lo, hi, i + 1, true
}

// digits reads a decimal number at i, saturating at maxRepeat.
func digits(s string, i int) (n, end int, ok bool) {
	start := i
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = min(n*10+int(s[i]-'0'), maxRepeat)
	}
	return n, i, i > start
}
