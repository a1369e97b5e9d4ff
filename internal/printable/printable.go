// Package printable makes text that others wrote (a team server, a hooks
// file, a hook's command) safe to show on a terminal: control characters,
// whose escape sequences could rewrite or hide what the user reads, and
// the bidirectional overrides of "Trojan source" are shown as \u escapes.
package printable

import (
	"fmt"
	"strings"
)

// Line is s on one line: line breaks are escaped too.
func Line(s string) string { return escape(s, false) }

// Text is s as multi-line text (a script): line breaks and tabs are kept,
// every other control character and override is escaped.
func Text(s string) string { return escape(s, true) }

// Safe reports whether Line would leave s as it is.
func Safe(s string) bool {
	for _, r := range s {
		if unsafeRune(r, false) {
			return false
		}
	}
	return true
}

func escape(s string, multiline bool) string {
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
