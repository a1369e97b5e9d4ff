package shellquote

import "strings"

// POSIX returns s as one word of a POSIX shell command line, in the place
// of an argument: as it is when PlainPOSIX(s), else in single quotes, each
// quote inside written as quote, backslash, quote, quote.
func POSIX(s string) string {
	if PlainPOSIX(s) {
		return s
	}
	return POSIXAlways(s)
}

// POSIXAlways returns s in single quotes whatever it holds. Inside single
// quotes sh gives no character a meaning but the quote itself, which is
// closed, escaped and reopened.
func POSIXAlways(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// POSIXCommand joins argv into one sh command line that runs argv[0] with
// the rest as its arguments. Each word is quoted as POSIX quotes it; the
// first is also quoted when sh would read it bare as something else than a
// program name: an assignment (FOO=1) or a reserved word (if, time, …).
// A shell builtin of the same name as the program still runs instead of
// it: quoting cannot change that.
func POSIXCommand(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		if i == 0 && (strings.Contains(a, "=") || reservedWords[a]) {
			words[i] = POSIXAlways(a)
			continue
		}
		words[i] = POSIX(a)
	}
	return strings.Join(words, " ")
}

// PlainPOSIX reports whether s, unquoted in the place of an argument,
// means itself to sh: it is not empty and every byte is an ASCII letter or
// digit or one of _ - . / : = , + @ %. None of those starts an expansion,
// a glob, a quote, a redirection or an operator anywhere in a word. The
// set is deliberately small: quoting a word that did not need it costs
// nothing, leaving a meaningful character bare changes the command.
func PlainPOSIX(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !plainPOSIXByte(s[i]) {
			return false
		}
	}
	return true
}

func plainPOSIXByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("_-./:=,+@%", c) >= 0
}

// reservedWords are the words sh (and bash) read as syntax, not as a
// command, when they stand bare where a command starts. Quoted, each names
// a program again.
var reservedWords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true, "done": true,
	"case": true, "esac": true, "while": true, "until": true, "for": true, "in": true,
	"function": true, "select": true, "time": true, "coproc": true,
}
