package match

import (
	"slices"
	"unicode/utf8"
)

// charSet is a character class reduced to plain code point ranges. Classes
// are resolved here, not left to the engines, because the engines disagree
// with JavaScript on what \s and friends contain (Go's \s is ASCII only).
type charSet struct {
	negate bool
	ranges []runeRange // sorted, merged, no surrogates once normalized
}

type runeRange struct{ lo, hi rune }

// JavaScript's \s: WhiteSpace and LineTerminator (ECMA-262 22.2.2.9),
// that is \t \n \v \f \r, space, NBSP, U+1680, U+2000-200A, LS, PS,
// U+202F, U+205F, U+3000 and the BOM.
var jsSpace = []runeRange{
	{0x09, 0x0d}, {0x20, 0x20}, {0xa0, 0xa0}, {0x1680, 0x1680},
	{0x2000, 0x200a}, {0x2028, 0x2029}, {0x202f, 0x202f}, {0x205f, 0x205f},
	{0x3000, 0x3000}, {0xfeff, 0xfeff},
}

var (
	jsDigit = []runeRange{{'0', '9'}}
	jsWord  = []runeRange{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	// jsLineTerminator is what . does not match and where ^ and $ stop in
	// multiline mode.
	jsLineTerminator = []runeRange{{'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}}
)

// escapeRanges returns the ranges of a class escape letter (d D s S w W).
func escapeRanges(c byte) []runeRange {
	switch c {
	case 'd':
		return jsDigit
	case 'D':
		return complement(jsDigit)
	case 's':
		return jsSpace
	case 'S':
		return complement(jsSpace)
	case 'w':
		return jsWord
	case 'W':
		return complement(jsWord)
	}
	return nil
}

func (s *charSet) add(lo, hi rune) { s.ranges = append(s.ranges, runeRange{lo, hi}) }

// normalize sorts and merges the ranges and drops surrogate code points:
// Go strings hold code points, never lone surrogates, so they can match
// nothing (invalid UTF-8 reads as U+FFFD in both engines).
func (s *charSet) normalize() {
	var out []runeRange
	for _, r := range s.ranges {
		if r.lo <= 0xdfff && r.hi >= 0xd800 {
			if r.lo < 0xd800 {
				out = append(out, runeRange{r.lo, 0xd7ff})
			}
			if r.hi > 0xdfff {
				out = append(out, runeRange{0xe000, r.hi})
			}
			continue
		}
		out = append(out, r)
	}
	s.ranges = merge(out)
}

func merge(rs []runeRange) []runeRange {
	slices.SortFunc(rs, func(a, b runeRange) int { return int(a.lo - b.lo) })
	var out []runeRange
	for _, r := range rs {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// complement returns the code points (surrogates aside) not in rs.
func complement(rs []runeRange) []runeRange {
	rs = merge(slices.Clone(rs))
	var out []runeRange
	next := rune(0)
	for _, r := range rs {
		if r.lo > next {
			out = append(out, runeRange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= utf8.MaxRune {
		out = append(out, runeRange{next, utf8.MaxRune})
	}
	return out
}

// matchesNothing reports whether the set can match no character at all,
// as JavaScript's [] does.
func (s *charSet) matchesNothing() bool {
	if s.negate {
		return len(s.ranges) == 1 && s.ranges[0] == runeRange{0, utf8.MaxRune} ||
			slices.Equal(s.ranges, []runeRange{{0, 0xd7ff}, {0xe000, utf8.MaxRune}})
	}
	return len(s.ranges) == 0
}

// matchesAll reports whether the set matches every character, as
// JavaScript's [^] does.
func (s *charSet) matchesAll() bool {
	return (&charSet{negate: !s.negate, ranges: s.ranges}).matchesNothing()
}
