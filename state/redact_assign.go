package state

import (
	"strings"
	"unicode"

	"github.com/agenthooks/agenthooks/internal/lazyre"
)

// Secret names. A name looks like a secret's when one of its words (split
// at '_', '-', '.', spaces and lower-to-upper case changes: GITHUB_TOKEN,
// clientSecret, db.password) is one of secretWords, or ends with one of
// secretSuffixes (apikey, authtoken, dbpassword). Plurals that name
// counts (max_tokens, keys) are left out.
var (
	secretWords = map[string]bool{
		"key": true, "secret": true, "secrets": true, "token": true,
		"password": true, "passwd": true, "pass": true, "pwd": true, "passphrase": true,
		"credential": true, "credentials": true, "cred": true, "creds": true,
		"auth": true, "authorization": true, "private": true, "cookie": true,
	}
	secretSuffixes = []string{"key", "secret", "token", "password", "passwd", "pwd", "credential", "credentials"}
)

// notSecretLast are the last words of names that say something about a
// secret rather than hold one: key_count, token_type, secret_name,
// key_file, password_length.
var notSecretLast = map[string]bool{"count": true, "size": true, "len": true, "length": true,
	"type": true, "name": true, "id": true, "file": true, "path": true, "ttl": true,
	"timeout": true, "expiry": true, "expires": true, "limit": true, "url": true}

// isSecretName reports whether name looks like the name of a secret.
func isSecretName(name string) bool {
	if l := strings.ToLower(name); l == "pw" || strings.HasSuffix(l, "_pw") || strings.HasSuffix(l, "-pw") || strings.HasSuffix(l, ".pw") {
		return true // db_pw; not a "Pw" found inside a word (-pS3cretPw)
	}
	words := nameWords(name)
	if len(words) > 1 && notSecretLast[strings.ToLower(words[len(words)-1])] {
		return false
	}
	for _, w := range words {
		w = strings.ToLower(w)
		if secretWords[w] {
			return true
		}
		for _, suf := range secretSuffixes {
			if strings.HasSuffix(w, suf) {
				return true
			}
		}
	}
	return false
}

// nameWords splits an identifier into its words: at non-letters and
// non-digits, before an upper-case letter that follows a lower-case one
// (clientSecret), and before the last of a run of capitals followed by a
// lower-case letter (APIKey: API, Key).
func nameWords(name string) []string {
	var words []string
	rs := []rune(name)
	start := -1
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if start >= 0 {
				words = append(words, string(rs[start:i]))
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		split := unicode.IsUpper(r) && (unicode.IsLower(prev) ||
			(unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])))
		if split {
			words = append(words, string(rs[start:i]))
			start = i
		}
	}
	if start >= 0 {
		words = append(words, string(rs[start:]))
	}
	return words
}

// assignRe finds candidate assignments: NAME=, NAME:, "NAME":, 'NAME' =,
// export NAME=, --NAME=. Whether NAME is a secret's, and where the value
// ends, is decided in Go (RE2 has no look-around).
var assignRe = lazyre.New(`(?:^|[^A-Za-z0-9_$.])(["']?)([A-Za-z_][A-Za-z0-9_.\-]*)["']?[ \t]*[=:]`)

// flagRe finds "--NAME value" command-line flags.
var flagRe = lazyre.New(`(?:^|\s)--?([A-Za-z][A-Za-z0-9-]*)[ \t]+([^\s-][^\s]*)`)

// assignmentSpans finds the values assigned to secret-looking names:
//
//	NAME: value, - NAME: value       (YAML, a line of its own: the value
//	                                  is the rest of the line)
//	NAME=value, export NAME=value,   (the value is one word: it ends at
//	cmd NAME=value, url?NAME=value,   a blank or one of , ; & ) } ] < > " ')
//	"NAME": "v", --NAME=value
//	--NAME value
//
// A quoted value ends at its closing quote. ":=", "==" and an empty value
// are not assignments.
//
// It runs in time linear in len(s): a match inside a value already found
// is skipped, and line starts and ends are found once per line.
func assignmentSpans(s string) []span {
	var spans []span
	lineStart, lineEnd, scanned, covered := 0, -1, 0, 0
	for _, m := range assignRe().FindAllStringSubmatchIndex(s, -1) {
		nameStart, nameEnd, end := m[4], m[5], m[1]
		if nameStart < covered {
			continue
		}
		name := s[nameStart:nameEnd]
		// An Authorization header is the authorization detector's: it
		// keeps the scheme (Bearer, Basic) readable.
		if !isSecretName(name) || strings.HasSuffix(strings.ToLower(name), "authorization") {
			continue
		}
		sep, rest := s[end-1], s[end:]
		switch {
		case sep == ':' && strings.HasPrefix(rest, "="), sep == '=' && strings.HasPrefix(rest, "="):
			continue // := ==
		case sep == '=' && strings.HasPrefix(rest, ">"):
			end++ // =>
		}
		if i := strings.LastIndexByte(s[scanned:m[2]], '\n'); i >= 0 {
			lineStart = scanned + i + 1
		}
		scanned = m[2]
		if lineEnd < end {
			if lineEnd = strings.IndexByte(s[end:], '\n'); lineEnd < 0 {
				lineEnd = len(s)
			} else {
				lineEnd += end
			}
		}
		before := strings.TrimSpace(s[lineStart:m[2]])
		before = strings.TrimSpace(strings.TrimPrefix(before, "export"))
		// "NAME: value" on a line of its own (YAML) takes the rest of
		// the line; NAME=value is one word, as in a shell command.
		wholeLine := sep == ':' && (before == "" || before == "-")
		if sp, ok := assignedValue(s, end, lineEnd, wholeLine); ok {
			spans = append(spans, sp)
			covered = sp.end
		}
	}
	for _, m := range flagRe().FindAllStringSubmatchIndex(s, -1) {
		if isSecretName(s[m[2]:m[3]]) && !strings.HasPrefix(s[m[4]:], redactedPrefix) {
			spans = append(spans, span{m[4], m[5], "secret-value"})
		}
	}
	return spans
}

// assignedValue is the span of the value starting at s[at:] (after
// blanks) on the line that ends at lineEnd: quoted, the rest of the line
// for wholeLine, else one word.
func assignedValue(s string, at, lineEnd int, wholeLine bool) (span, bool) {
	for at < lineEnd && (s[at] == ' ' || s[at] == '\t') {
		at++
	}
	if at >= lineEnd || strings.HasPrefix(s[at:], redactedPrefix) {
		return span{}, false
	}
	start, end := at, lineEnd
	switch {
	case s[at] == '"' || s[at] == '\'':
		start = at + 1
		if close := closingQuote(s[start:lineEnd], s[at]); close >= 0 {
			end = start + close
		}
	case wholeLine:
		end = start + len(strings.TrimRight(s[start:lineEnd], " \t\r,"))
	default:
		end = wordEnd(s, start, lineEnd)
	}
	if start >= end || strings.HasPrefix(s[start:], redactedPrefix) {
		return span{}, false
	}
	if v := s[start:end]; reference(v) || s[at] != '"' && s[at] != '\'' && codeReference(s[start:lineEnd]) {
		return span{}, false
	}
	return span{start, end, "secret-value"}, true
}

// reference reports a value that names a secret kept elsewhere rather
// than holds one: a shell or template variable ($TOKEN, ${DB_PASSWORD},
// $(cat f)). Redacting it would hide what the log is for.
func reference(v string) bool {
	return strings.HasPrefix(v, "$")
}

// codeReference reports an unquoted value (from where it starts to the
// end of its line) that is source code rather than a secret: a structure
// ({…}, […]), a call or an index (os.environ["X"], getenv("X")), or a
// dotted name, or one ending a statement, whose last part names a
// secret (req.body.password, this.apiKey, `c.token = token }`), as in
// `const password = req.body.password;`.
func codeReference(rest string) bool {
	if rest == "" {
		return false
	}
	if rest[0] == '{' || rest[0] == '[' {
		return true
	}
	i := 0
	last := 0
	for i < len(rest) {
		j := i
		for j < len(rest) && (rest[j] == '_' || rest[j] >= 'a' && rest[j] <= 'z' || rest[j] >= 'A' && rest[j] <= 'Z' || j > i && rest[j] >= '0' && rest[j] <= '9') {
			j++
		}
		if j == i {
			return false // not a name
		}
		last = i
		i = j
		if i < len(rest) && rest[i] == '.' {
			i++
			continue
		}
		break
	}
	rest, name := rest[i:], rest[last:i]
	rest = strings.TrimLeft(rest, " \t")
	switch {
	case rest != "" && (rest[0] == '(' || rest[0] == '['):
		return true
	case rest == "" && last > 0, rest != "" && (rest[0] == ';' || rest[0] == ')' || rest[0] == '}'):
		// A dotted name, or a statement of code: DB_PASSWORD=mypassword
		// on a line of its own is a value.
		return isSecretName(name)
	}
	return false
}

// wordEnd is where an unquoted value starting at start ends: at a blank
// or one of , ; & ) } ] < > " ', but not at one a backslash escapes (a
// shell word such as ab\ cd is one value).
func wordEnd(s string, start, lineEnd int) int {
	for i := start; i < lineEnd; i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < lineEnd:
			i++
		case strings.IndexByte(" \t\r,;&)}]<>\"'", c) >= 0:
			return i
		}
	}
	return lineEnd
}

// closingQuote is the index in s of the quote q that closes a value, -1
// when there is none; in a double-quoted value a backslash escapes.
func closingQuote(s string, q byte) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && q == '"':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}
