package sync

import (
	"fmt"
	"strings"
)

// printable makes text from the server safe to show on a terminal, on
// one line: control characters (escape sequences could rewrite what the
// user reviews) and the bidirectional overrides of "Trojan source" are
// shown as \u escapes, as are line breaks.
func printable(s string) string { return escapeText(s, false) }

// Printable is printable for multi-line text such as a script: line
// breaks and tabs are kept, every other control character and
// bidirectional override is escaped.
func Printable(s string) string { return escapeText(s, true) }

func escapeText(s string, multiline bool) string {
	clean := true
	for _, r := range s {
		if unsafeRune(r, multiline) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unsafeRune(r, multiline) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unsafeRune(r rune, multiline bool) bool {
	switch {
	case multiline && (r == '\n' || r == '\t'):
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r == 0xfffd:
		return true // invalid UTF-8 decodes to it: show that something was there
	}
	return false
}
