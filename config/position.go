package config

import (
	"sort"
	"unicode/utf8"
)

// lineIndex turns byte offsets into 1-based line:column positions.
//
// Columns count characters (UTF-8 runes, an invalid byte counting as one),
// not bytes: a user reading "hooks.json:3:12" counts characters in an
// editor, and a non-ASCII command string earlier on the line must not
// shift the column. Lines end at '\n', so CRLF files number lines the same
// way as LF files.
type lineIndex struct {
	data   []byte
	starts []int // byte offset where each line begins; starts[0] == 0
}

func newLineIndex(data []byte) *lineIndex {
	starts := make([]int, 1, 64)
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{data: data, starts: starts}
}

// position returns the 1-based line and column of byte offset off. An
// offset past the end (the position of "unexpected end of file") is
// clamped to just after the last byte.
func (x *lineIndex) position(off int) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > len(x.data) {
		off = len(x.data)
	}
	// The last line starting at or before off.
	i := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	return i + 1, utf8.RuneCount(x.data[x.starts[i]:off]) + 1
}
