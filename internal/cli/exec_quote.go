package cli

import (
	"runtime"
	"strings"
)

// execQuoteArgs joins an argv into the one command line hooks see. It is
// the line the platform shell would split back into the same words, so a
// hook that matches "^git push" or pastes the command into a shell sees
// exactly what will run.
func execQuoteArgs(args []string) string {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = execQuote(a, i == 0, runtime.GOOS == "windows")
	}
	return strings.Join(words, " ")
}

// execQuote quotes one word when it needs it: in POSIX sh single quotes,
// a quote inside closed, escaped and reopened; in PowerShell's, a quote
// inside doubled. Plain words stay as they are, so "git push" reads as
// typed.
func execQuote(s string, first, powershell bool) string {
	if s != "" && execPlainWord(s, first, powershell) {
		return s
	}
	if powershell {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// execPlainWord reports whether s means itself to the shell unquoted. The
// sets are deliberately small: quoting a word that did not need it costs
// nothing, leaving a meaningful character bare changes the command. A
// first word with "=" would be an assignment to sh; PowerShell gives ","
// "@" "%" and a leading "-" meanings of their own.
func execPlainWord(s string, first, powershell bool) bool {
	if powershell && (s[0] == '-' || s[0] == '@') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("_-./:+", c) >= 0:
		case c == '\\' && powershell:
		case !powershell && (c == '@' || c == '%' || c == ','):
		case !powershell && c == '=' && !first:
		default:
			return false
		}
	}
	return true
}
