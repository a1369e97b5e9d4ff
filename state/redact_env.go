package state

import (
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/internal/lazyre"
)

// A .env file (.env, .env.local, production.env, …) is a list of secrets
// more often than not, whatever its names: when a payload is about one,
// every value in its content fields is redacted, not only those of
// secret-looking names.

// isEnvFile reports whether path names a .env file: its base name is
// ".env", starts with ".env." or ends with ".env". Templates
// (.env.example) count too: they too are often filled in.
func isEnvFile(path string) bool {
	base := filepath.Base(strings.ReplaceAll(path, `\`, "/"))
	return base == ".env" || strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env")
}

// envLineRe is an assignment line of a .env file, up to its value.
var envLineRe = lazyre.New(`^[ \t]*(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_.\-]*[ \t]*[=:][ \t]*`)

// envFileSpans redacts a .env file's content: every assignment's value
// (a quoted one up to its closing quote, even lines later), and every
// other line that is neither blank nor a comment, whole.
func envFileSpans(s string) []span {
	var spans []span
	var inQuote byte // the quote of a value that goes on to later lines
	for at := 0; at < len(s); {
		end := strings.IndexByte(s[at:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += at
		}
		line := strings.TrimRight(s[at:end], "\r")
		lineEnd := at + len(line)
		switch trimmed := strings.TrimSpace(line); {
		case inQuote != 0:
			if close := closingQuote(line, inQuote); close >= 0 {
				spans = append(spans, span{at, at + close, "env-value"})
				inQuote = 0
			} else if line != "" {
				spans = append(spans, span{at, lineEnd, "env-value"})
			}
		case trimmed == "" || trimmed[0] == '#':
		default:
			m := envLineRe().FindStringIndex(line)
			if m == nil {
				spans = append(spans, span{at + (len(line) - len(strings.TrimLeft(line, " \t"))), lineEnd, "env-value"})
				break
			}
			v := at + m[1]
			switch {
			case v >= lineEnd:
			case s[v] == '"' || s[v] == '\'':
				if close := closingQuote(s[v+1:lineEnd], s[v]); close >= 0 {
					if close > 0 {
						spans = append(spans, span{v + 1, v + 1 + close, "env-value"})
					}
				} else {
					inQuote = s[v]
					if v+1 < lineEnd {
						spans = append(spans, span{v + 1, lineEnd, "env-value"})
					}
				}
			default:
				spans = append(spans, span{v, at + len(strings.TrimRight(line, " \t")), "env-value"})
			}
		}
		at = end + 1
	}
	return spans
}
