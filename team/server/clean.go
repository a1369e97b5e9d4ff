package server

import (
	"strings"
	"unicode"
)

// cleanText keeps at most n bytes of what a member machine says of itself
// or of its decisions, for administrators to read: printable characters
// only (no control character, no bidirectional override, no replacement
// character for bytes that were not UTF-8), and line breaks and tabs when
// lines is set.
func cleanText(s string, n int, lines bool) string {
	var b strings.Builder
	for _, r := range s {
		keep := r != '\uFFFD' && unicode.IsPrint(r) || lines && (r == '\n' || r == '\t')
		if !keep {
			continue
		}
		if b.Len()+len(string(r)) > n {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}
