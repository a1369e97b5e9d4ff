package match

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// parseGroup parses everything that starts with '(': groups, lookarounds
// and inline flags.
func (p *parser) parseGroup() (n *node, repeatable bool, err error) {
	start := p.pos
	if p.depth >= maxDepth {
		return nil, false, p.errorf(start, "groups nested more than %d deep", maxDepth)
	}
	switch {
	case p.at("(?:"):
		p.pos += 3
		n = &node{kind: kGroup}
	case p.at("(?="), p.at("(?!"):
		// Annex B lets a lookahead be repeated; a lookbehind may not be.
		n = &node{kind: kLook, negate: p.at("(?!")}
		p.pos += 3
	case p.at("(?<="), p.at("(?<!"):
		n = &node{kind: kLook, behind: true, negate: p.at("(?<!")}
		p.pos += 4
	case p.at("(?<"):
		if n, err = p.parseNamedGroup(); err != nil {
			return nil, false, err
		}
	case p.at("(?"):
		if n, err = p.parseFlags(); err != nil {
			return nil, false, err
		}
		if n.kind == kSetFlags {
			p.flags = (p.flags | n.on) &^ n.off
			return n, false, nil
		}
	default:
		p.pos++
		p.seen++
		n = &node{kind: kGroup, capture: p.seen}
	}

	saved := p.flags
	p.flags = (p.flags | n.on) &^ n.off
	p.depth++
	body, err := p.parseAlternation()
	p.depth--
	p.flags = saved
	if err != nil {
		return nil, false, err
	}
	if p.done() {
		return nil, false, p.errorf(start, "missing closing )")
	}
	p.pos++ // )
	n.subs = []*node{body}
	return n, !(n.kind == kLook && n.behind), nil
}

// parseNamedGroup parses "(?<name>", the start of a named capture.
func (p *parser) parseNamedGroup() (*node, error) {
	start := p.pos
	p.pos += 3
	end := strings.IndexByte(p.src[p.pos:], '>')
	if end < 0 {
		return nil, p.errorf(start, "capture group name after (?< has no closing >")
	}
	name := p.src[p.pos : p.pos+end]
	if !isGroupName(name) {
		return nil, p.errorf(start, "invalid capture group name %q: it must start with a letter, $ or _ and go on with letters, digits, $ or _", name)
	}
	if p.defined[name] {
		return nil, p.errorf(start, "duplicate capture group name %q", name)
	}
	p.defined[name] = true
	p.pos += end + 1
	p.seen++
	return &node{kind: kGroup, capture: p.seen}, nil
}

// isGroupName reports whether s is a JavaScript identifier (without
// escapes, which no matcher needs).
func isGroupName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		start := r == '$' || r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
		part := unicode.In(r, unicode.Nd, unicode.Mn, unicode.Mc, unicode.Pc) || r == 0x200c || r == 0x200d
		if !start && (i == 0 || !part) {
			return false
		}
	}
	return utf8.ValidString(s)
}

// parseFlags parses inline flags: "(?ims)" alone, which sets them until
// the end of the enclosing group, or "(?i-s:", which opens a group with
// them. JavaScript (before ES2025) rejects both; we accept i, m and s and
// leave the matching to the backtracking engine.
func (p *parser) parseFlags() (*node, error) {
	start := p.pos
	i := p.pos + 2
	var on, off flags
	minus := false
	for ; i < len(p.src); i++ {
		c := p.src[i]
		var f flags
		switch c {
		case 'i':
			f = flagIgnoreCase
		case 'm':
			f = flagMultiline
		case 's':
			f = flagDotAll
		case '-':
			if minus {
				return nil, p.errorf(start, "inline flags %s have more than one -", p.src[start:i+1])
			}
			minus = true
			continue
		case ')', ':':
			if on|off == 0 && (c == ')' || minus) {
				return nil, p.errorf(start, "%s names no flag", p.src[start:i+1])
			}
			p.pos = i + 1
			k := kFlagGroup
			if c == ')' {
				k = kSetFlags
			}
			return &node{kind: k, on: on, off: off}, nil
		default:
			_, size := utf8.DecodeRuneInString(p.src[i:])
			return nil, p.errorf(start, "unknown group %s: a group starting with (? must be (?:, (?=, (?!, (?<=, (?<!, (?<name> or inline flags i, m, s such as (?i)", p.src[start:i+size])
		}
		if (on|off)&f != 0 {
			return nil, p.errorf(start, "inline flags %s name %c twice", p.src[start:i+1], c)
		}
		if minus {
			off |= f
		} else {
			on |= f
		}
	}
	return nil, p.errorf(start, "missing closing )")
}
