package shellquote

import "strings"

// PowerShell returns s as one PowerShell argument: as it is when
// PlainPowerShell(s), else in single quotes (see PowerShellAlways).
func PowerShell(s string) string {
	if PlainPowerShell(s) {
		return s
	}
	return PowerShellAlways(s)
}

// PowerShellAlways returns s in single quotes whatever it holds. PowerShell
// takes any of ' ‘ ’ ‚ ‛ as a single quote, both to open and to close the
// string, and reads two in a row inside it as the second one; so each of
// them in s is doubled. Doubling only ' would let a ’ in s close the
// string and run what follows.
func PowerShellAlways(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for _, r := range s {
		if isPowerShellQuote(r) {
			b.WriteRune(r)
		}
		b.WriteRune(r)
	}
	b.WriteByte('\'')
	return b.String()
}

// PowerShellCommand joins argv into one PowerShell command line that runs
// argv[0] with the rest as its arguments. A bare first word that PowerShell
// would read as something else than a command name (a keyword such as if
// or foreach, a number) is quoted too; and since a quoted string alone at
// the start of a line is a value to PowerShell, not a call, a quoted first
// word is preceded by the call operator &.
func PowerShellCommand(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = PowerShell(a)
	}
	first := argv[0]
	if PlainPowerShell(first) && !('0' <= first[0] && first[0] <= '9') && !powershellKeywords[strings.ToLower(first)] {
		return strings.Join(words, " ")
	}
	words[0] = PowerShellAlways(first)
	return "& " + strings.Join(words, " ")
}

// PlainPowerShell reports whether s, unquoted, means itself to PowerShell
// in the place of an argument: it is not empty, every byte is an ASCII
// letter or digit or one of _ - . / : + \, and it does not start with - or
// @ (a parameter name, a splat). PowerShell gives , @ % = and the rest of
// punctuation meanings of their own, and reads some non-ASCII characters
// as quotes and dashes, so all of those are quoted.
func PlainPowerShell(s string) bool {
	if s == "" || s[0] == '-' || s[0] == '@' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte(`_-./:+\`, c) >= 0:
		default:
			return false
		}
	}
	return true
}

// isPowerShellQuote reports the characters PowerShell's tokenizer takes
// for a single quote.
func isPowerShellQuote(r rune) bool {
	switch r {
	case '\'', '\u2018', '\u2019', '\u201a', '\u201b':
		return true
	}
	return false
}

// powershellKeywords are the words PowerShell reads as syntax, whatever
// their case, where a command starts.
var powershellKeywords = map[string]bool{
	"begin": true, "break": true, "catch": true, "class": true, "clean": true, "configuration": true,
	"continue": true, "data": true, "define": true, "do": true, "dynamicparam": true, "else": true,
	"elseif": true, "end": true, "enum": true, "exit": true, "filter": true, "finally": true,
	"for": true, "foreach": true, "from": true, "function": true, "hidden": true, "if": true,
	"in": true, "inlinescript": true, "parallel": true, "param": true, "process": true,
	"return": true, "sequence": true, "static": true, "switch": true, "throw": true, "trap": true,
	"try": true, "until": true, "using": true, "var": true, "while": true, "workflow": true,
}
