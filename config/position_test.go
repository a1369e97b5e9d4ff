package config

import "testing"

func TestLineIndexPosition(t *testing.T) {
	data := []byte("ab\r\né€x\n\nz")
	tests := []struct {
		off       int
		line, col int
	}{
		{0, 1, 1},
		{1, 1, 2},
		{2, 1, 3}, // the \r of a CRLF belongs to its line
		{4, 2, 1},
		{6, 2, 2},  // after é (2 bytes): columns count characters
		{9, 2, 3},  // after € (3 bytes)
		{10, 2, 4}, // the \n
		{11, 3, 1},
		{12, 4, 1},
		{13, 4, 2}, // end of file
		{99, 4, 2}, // clamped
		{-5, 1, 1}, // clamped
	}
	x := newLineIndex(data)
	for _, tt := range tests {
		line, col := x.position(tt.off)
		if line != tt.line || col != tt.col {
			t.Errorf("position(%d) = %d:%d, want %d:%d", tt.off, line, col, tt.line, tt.col)
		}
	}
}
