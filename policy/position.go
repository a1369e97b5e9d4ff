package policy

import (
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// scalarPos finds where the off-th character of a YAML scalar's value
// sits in the file, so that an error inside a `when` expression points
// at the file's line and column rather than the expression's.
//
// It walks the source from the scalar's start and the value side by
// side: a character of the value is found by skipping what YAML removed
// (quotes, indentation, escape backslashes, the block indicator line),
// and whitespace in the value matches any run of whitespace in the
// source (folding). The result is exact for plain, quoted and literal
// block scalars, and close for folded ones.
func scalarPos(src []byte, n *yaml.Node, value string, off int) (line, col int) {
	pos := lineOffset(src, n.Line)
	if pos < 0 {
		return n.Line, n.Column
	}
	pos = advanceRunes(src, pos, n.Column-1)
	switch n.Style {
	case yaml.LiteralStyle, yaml.FoldedStyle:
		// The content starts on the line after the indicator.
		for pos < len(src) && src[pos] != '\n' {
			pos++
		}
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		pos++
	}
	k := 0
	for _, v := range value {
		if pos >= len(src) {
			return n.Line, n.Column
		}
		if unicode.IsSpace(v) {
			switch {
			case isSpace(src[pos]):
				// The value's whitespace is a run of source whitespace;
				// stop before the run when the target comes next, so the
				// position lands on the target's first character.
				if k == off {
					return lineCol(src, skipSpace(src, pos))
				}
				pos = skipSpace(src, pos)
			case src[pos] == '\\' && n.Style == yaml.DoubleQuotedStyle:
				pos += 2
			}
			if k == off {
				return lineCol(src, pos)
			}
			k++
			continue
		}
		start := pos
		for pos < len(src) {
			r, size := utf8.DecodeRune(src[pos:])
			if r == v {
				break
			}
			pos += size
			if pos-start > 256 {
				return n.Line, n.Column
			}
		}
		if k == off {
			return lineCol(src, pos)
		}
		_, size := utf8.DecodeRune(src[pos:])
		pos += size
		k++
	}
	return lineCol(src, pos)
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func skipSpace(src []byte, pos int) int {
	for pos < len(src) && isSpace(src[pos]) {
		pos++
	}
	return pos
}

// lineOffset is the byte offset where 1-based line starts, or -1.
func lineOffset(src []byte, line int) int {
	if line < 1 {
		return -1
	}
	cur := 1
	for i := 0; i < len(src) && cur < line; i++ {
		if src[i] == '\n' {
			cur++
			if cur == line {
				return i + 1
			}
		}
	}
	if cur == line {
		return 0
	}
	return -1
}

func advanceRunes(src []byte, pos, n int) int {
	for ; n > 0 && pos < len(src); n-- {
		_, size := utf8.DecodeRune(src[pos:])
		pos += size
	}
	return pos
}

// lineCol turns a byte offset into a 1-based line and a 1-based column
// counted in characters.
func lineCol(src []byte, pos int) (int, int) {
	if pos > len(src) {
		pos = len(src)
	}
	line, start := 1, 0
	for i := 0; i < pos; i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCount(src[start:pos]) + 1
}
