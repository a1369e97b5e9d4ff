package cli

import (
	"io"
	"os"
	"strconv"

	"golang.org/x/term"
)

// colorEnabled reports whether w should get ANSI colours: only when it is
// a terminal, so piped and redirected output stays plain text, and never
// when NO_COLOR is set to a non-empty value (no-color.org) or TERM is
// "dumb".
func colorEnabled(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// defaultWidth is the line width assumed when output is not a terminal
// and COLUMNS does not say.
const defaultWidth = 120

// outputWidth is the number of columns w can show: the terminal's width,
// else $COLUMNS, else defaultWidth.
func outputWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return defaultWidth
}

// ANSI styles.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
)

// paint wraps s in style when on; the escape codes take no columns, so
// callers pad s before painting it.
func paint(on bool, style, s string) string {
	if !on || style == "" {
		return s
	}
	return style + s + ansiReset
}
