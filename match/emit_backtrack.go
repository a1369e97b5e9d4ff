package match

import (
	"fmt"
	"strings"
)

// toBacktrack writes the tree in regexp2's ECMAScript syntax. regexp2's
// ECMAScript mode is close to JavaScript but not equal (its \b and . see
// Unicode, \A and \pL are not letters to it, ^* is accepted), so nothing
// is left to its reading of the dialect: classes are written as ranges,
// . and \b are spelled out, captures are named g1, g2 ... so that numbering
// does not depend on .NET's rule of numbering named groups last.
func toBacktrack(n *node) string {
	var b strings.Builder
	writeBacktrack(&b, n)
	return b.String()
}

const (
	btWord     = `[0-9A-Z_a-z]`
	btNotLine  = `[^\n\r\u2028\u2029]`
	btBoundary = `(?<=` + btWord + `)(?!` + btWord + `)|(?<!` + btWord + `)(?=` + btWord + `)`
	btInside   = `(?<=` + btWord + `)(?=` + btWord + `)|(?<!` + btWord + `)(?!` + btWord + `)`
)

func writeBacktrack(b *strings.Builder, n *node) {
	switch n.kind {
	case kLiteral:
		writeBacktrackRune(b, n.r)
	case kAny:
		writeBacktrackSet(b, anySet(n.flags))
	case kClass:
		writeBacktrackSet(b, n.set)
	case kBegin:
		if n.flags&flagMultiline != 0 {
			b.WriteString(`(?<!` + btNotLine + `)`)
		} else {
			b.WriteString(`^`)
		}
	case kEnd:
		if n.flags&flagMultiline != 0 {
			b.WriteString(`(?!` + btNotLine + `)`)
		} else {
			b.WriteString(`$`)
		}
	case kWordBoundary, kNotWordBoundary:
		// JavaScript's \b looks at ASCII word characters only, even
		// under i; regexp2's looks at Unicode letters.
		body := btBoundary
		if n.kind == kNotWordBoundary {
			body = btInside
		}
		b.WriteString(`(?-i:` + body + `)`)
	case kGroup:
		if n.capture > 0 {
			fmt.Fprintf(b, "(?<g%d>", n.capture)
		} else {
			b.WriteString(`(?:`)
		}
		writeBacktrack(b, n.subs[0])
		b.WriteByte(')')
	case kLook:
		b.WriteString("(?")
		if n.behind {
			b.WriteByte('<')
		}
		if n.negate {
			b.WriteByte('!')
		} else {
			b.WriteByte('=')
		}
		writeBacktrack(b, n.subs[0])
		b.WriteByte(')')
	case kBackref:
		fmt.Fprintf(b, `\k<g%d>`, n.capture)
	case kSetFlags:
		b.WriteString(ignoreCaseSwitch(n, ")"))
	case kFlagGroup:
		b.WriteString(ignoreCaseSwitch(n, ":"))
		writeBacktrack(b, n.subs[0])
		b.WriteByte(')')
	case kRepeat:
		b.WriteString(`(?:`)
		writeBacktrack(b, n.subs[0])
		b.WriteByte(')')
		writeQuantifier(b, n)
	case kConcat:
		for _, s := range n.subs {
			writeBacktrack(b, s)
		}
	case kAlternate:
		for i, s := range n.subs {
			if i > 0 {
				b.WriteByte('|')
			}
			writeBacktrack(b, s)
		}
	}
}

// ignoreCaseSwitch writes the i part of inline flags; m and s are already
// applied by the parser to the nodes they change.
func ignoreCaseSwitch(n *node, end string) string {
	switch {
	case n.on&flagIgnoreCase != 0:
		return "(?i" + end
	case n.off&flagIgnoreCase != 0:
		return "(?-i" + end
	case end == ":":
		return "(?:"
	}
	return ""
}

// writeBacktrackRune writes a character so that no dialect rule applies
// to it: letters and digits as themselves, the rest of the BMP as \uXXXX,
// characters beyond it as themselves (regexp2 reads the pattern as code
// points).
func writeBacktrackRune(b *strings.Builder, r rune) {
	switch {
	case isASCIIAlnum(r), r > 0xffff:
		b.WriteRune(r)
	default:
		fmt.Fprintf(b, `\u%04x`, r)
	}
}

func writeBacktrackSet(b *strings.Builder, s *charSet) {
	switch {
	case s.matchesNothing():
		b.WriteString(`(?!)`)
		return
	case s.matchesAll():
		b.WriteString(`[\s\S]`)
		return
	}
	b.WriteByte('[')
	if s.negate {
		b.WriteByte('^')
	}
	for _, r := range s.ranges {
		writeBacktrackRune(b, r.lo)
		if r.hi != r.lo {
			b.WriteByte('-')
			writeBacktrackRune(b, r.hi)
		}
	}
	b.WriteByte(']')
}
