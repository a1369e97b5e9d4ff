package match

import (
	"fmt"
	"strings"
)

// maxRE2Repeat is the largest count Go's regexp accepts in {n,m}.
const maxRE2Repeat = 1000

// toRE2 writes the tree in Go regexp syntax, or reports false if it uses
// something RE2 cannot do (back references, lookaround) or that we leave
// to the backtracking engine (inline flags: Go folds case by Unicode
// rules, JavaScript by its own). Everything else means exactly the same
// once written out: . and \s become explicit classes, literals are
// written as \x{...}, groups do not capture (test() reports no groups).
func toRE2(n *node) (string, bool) {
	var b strings.Builder
	ok := writeRE2(&b, n)
	return b.String(), ok
}

func writeRE2(b *strings.Builder, n *node) bool {
	switch n.kind {
	case kLiteral:
		writeRE2Rune(b, n.r)
	case kAny:
		writeRE2Set(b, anySet(n.flags))
	case kClass:
		writeRE2Set(b, n.set)
	case kBegin:
		b.WriteString(`^`) // without (?m), start of text in both
	case kEnd:
		b.WriteString(`$`) // without (?m), end of text in both (not before a final \n)
	case kWordBoundary:
		b.WriteString(`\b`) // ASCII word characters in both
	case kNotWordBoundary:
		b.WriteString(`\B`)
	case kGroup:
		b.WriteString(`(?:`)
		if !writeRE2(b, n.subs[0]) {
			return false
		}
		b.WriteString(`)`)
	case kRepeat:
		if n.min > maxRE2Repeat || n.max > maxRE2Repeat {
			return false
		}
		if !writeRE2(b, n.subs[0]) {
			return false
		}
		writeQuantifier(b, n)
	case kConcat:
		for _, s := range n.subs {
			if !writeRE2(b, s) {
				return false
			}
		}
	case kAlternate:
		for i, s := range n.subs {
			if i > 0 {
				b.WriteByte('|')
			}
			if !writeRE2(b, s) {
				return false
			}
		}
	default: // kLook, kBackref, kSetFlags, kFlagGroup
		return false
	}
	return true
}

// writeQuantifier writes the quantifier of a kRepeat node; the syntax is
// the same in both engines.
func writeQuantifier(b *strings.Builder, n *node) {
	switch {
	case n.min == 0 && n.max < 0:
		b.WriteByte('*')
	case n.min == 1 && n.max < 0:
		b.WriteByte('+')
	case n.min == 0 && n.max == 1:
		b.WriteByte('?')
	case n.max < 0:
		fmt.Fprintf(b, "{%d,}", n.min)
	case n.min == n.max:
		fmt.Fprintf(b, "{%d}", n.min)
	default:
		fmt.Fprintf(b, "{%d,%d}", n.min, n.max)
	}
	if n.lazy {
		b.WriteByte('?')
	}
}

// anySet is what . matches: everything but line terminators, or with the
// s flag everything.
func anySet(f flags) *charSet {
	if f&flagDotAll != 0 {
		return &charSet{negate: true}
	}
	return &charSet{negate: true, ranges: jsLineTerminator}
}

func writeRE2Rune(b *strings.Builder, r rune) {
	if isASCIIAlnum(r) {
		b.WriteRune(r)
		return
	}
	fmt.Fprintf(b, `\x{%x}`, r)
}

func writeRE2Set(b *strings.Builder, s *charSet) {
	switch {
	case s.matchesNothing():
		b.WriteString(`[^\x{0}-\x{10ffff}]`)
		return
	case s.matchesAll():
		b.WriteString(`[\x{0}-\x{10ffff}]`)
		return
	}
	b.WriteByte('[')
	if s.negate {
		b.WriteByte('^')
	}
	for _, r := range s.ranges {
		writeRE2Rune(b, r.lo)
		if r.hi != r.lo {
			b.WriteByte('-')
			writeRE2Rune(b, r.hi)
		}
	}
	b.WriteByte(']')
}

func isASCIIAlnum(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
}
