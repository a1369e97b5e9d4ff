package state

import (
	"regexp"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/internal/lazyre"
)

// The secret detectors. A maintained detector set (gitleaks, trufflehog)
// exists only inside large modules whose dependency trees dwarf this
// project's, so the set is kept here: the well-known token shapes, whose
// prefixes make false matches rare, plus assignments whose name looks
// like a secret's (assign.go). A missed secret stays in the log, a false
// match only hides a value: the patterns lean to matching.
//
// Patterns that can be long or cut by a cap (private keys, JWTs, bearer
// credentials, assignment values) also match when cut off by the end of
// the text, so a prefix of a secret is redacted as the whole would be.

// span is a part of a string to replace with "[REDACTED:kind]".
type span struct {
	start, end int
	kind       string
}

// redactedPrefix starts every marker. Values that already begin with it
// are not matched again, so redacting twice changes nothing.
const redactedPrefix = "[REDACTED:"

// detector finds one kind of secret. keywords, when set, must appear in
// the text (case-sensitively) for the regexp to run at all: a cheap
// filter, since most strings hold no secret. group is the submatch that is
// the secret; 0 is the whole match.
type detector struct {
	kind     string
	keywords []string
	re       func() *regexp.Regexp
	group    int
}

// accepts are the further checks of a kind's matches: a URL's user name
// is a token only when it holds letters and digits both.
var accepts = map[string]func(string) bool{"url-token": lettersAndDigits}

// lettersAndDigits reports a word holding both, as generated tokens do
// and user names rarely do.
func lettersAndDigits(s string) bool {
	return strings.ContainsAny(s, "0123456789") && strings.IndexFunc(s, func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}) >= 0
}

// detectors compile their patterns on first use, each only once its
// keywords are seen: most text holds none of them, and a step run in a
// process of its own would otherwise compile every pattern to log it.
var detectors = []detector{
	{"private-key", []string{"PRIVATE KEY"},
		lazyre.New(`-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\z)`), 0},
	{"aws-access-key", []string{"AKIA", "ASIA", "ABIA", "ACCA", "A3T"},
		lazyre.New(`\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b`), 0},
	{"github-token", []string{"gh"}, lazyre.New(`\bgh[pousr]_[A-Za-z0-9]{36,255}\b`), 0},
	{"github-token", []string{"github_pat_"}, lazyre.New(`\bgithub_pat_[A-Za-z0-9_]{22,255}\b`), 0},
	{"gitlab-token", []string{"glpat-"}, lazyre.New(`\bglpat-[A-Za-z0-9_-]{20,}`), 0},
	{"slack-token", []string{"xox"}, lazyre.New(`\bxox[abposre]-[A-Za-z0-9-]{10,}`), 0},
	{"slack-webhook", []string{"hooks.slack.com"},
		lazyre.New(`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+`), 0},
	{"stripe-key", []string{"_live_", "_test_"}, lazyre.New(`\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`), 0},
	{"google-api-key", []string{"AIza"}, lazyre.New(`\bAIza[0-9A-Za-z_-]{35}`), 0},
	{"anthropic-key", []string{"sk-ant-"}, lazyre.New(`\bsk-ant-[A-Za-z0-9_-]{20,}`), 0},
	{"openai-key", []string{"sk-"}, lazyre.New(`\bsk-[A-Za-z0-9_-]{20,}`), 0},
	{"npm-token", []string{"npm_"}, lazyre.New(`\bnpm_[A-Za-z0-9]{36}\b`), 0},
	{"huggingface-token", []string{"hf_"}, lazyre.New(`\bhf_[A-Za-z]{34}\b`), 0},
	{"jwt", []string{"eyJ"}, lazyre.New(`\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?`), 0},
	// An Authorization header or field, whatever its scheme; then a bare
	// "Bearer x" anywhere (a curl -H argument cut from its header name).
	{"authorization", []string{"uthorization", "UTHORIZATION"},
		lazyre.New(`(?i)\bauthorization["']?[ \t]*[:=][ \t]*["']?(?:(?:basic|bearer|token|digest|apikey)[ \t]+)?([^\s"',;]+)`), 1},
	{"bearer-token", []string{"earer", "EARER"},
		lazyre.New(`(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{8,}=*)`), 1},
	{"url-password", []string{"://"},
		lazyre.New(`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:"']*:([^\s/?#@"']+)@`), 1},
	// A token given as a URL's user name (https://TOKEN@github.com):
	// long, of letters and digits both; a user name such as git@ or
	// alice@ is kept.
	{"url-token", []string{"://"}, lazyre.New(`\b[A-Za-z][A-Za-z0-9+.-]*://([A-Za-z0-9_-]{20,})@`), 1},
	// Passwords that command lines take as arguments of their own.
	{"cli-password", []string{"-u", "--user"}, // curl -u user:pass, curl -uuser:pass
		lazyre.New(`(?:^|\s)(?:-u|--user|--proxy-user)(?:[ \t]+|=|)['"]?[^\s:'"]*[^\s:0-9'"][^\s:'"]*:([^\s"']+)`), 1}, // not uid:gid
	{"cli-password", []string{"mysql", "mariadb"}, // mysql -pSECRET
		lazyre.New(`\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]*?\s-p([^\s"']+)`), 1},
	{"cli-password", []string{"sshpass"},
		lazyre.New(`\bsshpass\b[^\n]*?\s-p[ \t]*([^\s"']+)`), 1},
	{"cli-password", []string{" login"}, // docker login -p SECRET
		lazyre.New(`\b(?:docker|podman|nerdctl|helm\s+registry)\s+login\b[^\n]*?\s-p[ \t]+([^\s"']+)`), 1},
	{"cli-password", []string{"htpasswd"}, // htpasswd -b FILE USER PASSWORD
		lazyre.New(`\bhtpasswd\b[^\n]*?\s-[A-Za-z]*b[A-Za-z]*\s+(?:-\S+\s+)*\S+\s+\S+\s+([^\s"']+)`), 1},
	{"cli-password", []string{"openssl"}, // openssl enc -k SECRET, -pass pass:SECRET
		lazyre.New(`\bopenssl\b[^\n]*?\s-(?:k|pass|passin|passout)\s+(?:pass:)?([^\s"']+)`), 1},
	{"cli-password", []string{"configure"}, // aws configure set aws_secret_access_key SECRET
		lazyre.New(`(?i)\baws\s+configure\s+set\s+\S*(?:secret|token|key)\S*\s+([^\s"']+)`), 1},
}

// secretSpans finds the secrets in s: the detectors' and the assignments'
// matches, merged.
func secretSpans(s string) []span {
	var spans []span
	for _, d := range detectors {
		if d.keywords != nil && !containsAny(s, d.keywords) {
			continue
		}
		for _, m := range d.re().FindAllStringSubmatchIndex(s, -1) {
			start, end := m[2*d.group], m[2*d.group+1]
			if start < 0 || start == end || strings.HasPrefix(s[start:], redactedPrefix) ||
				accepts[d.kind] != nil && !accepts[d.kind](s[start:end]) || reference(s[start:end]) {
				continue
			}
			spans = append(spans, span{start, end, d.kind})
		}
	}
	if strings.ContainsAny(s, "=:-") { // what an assignment or a flag needs
		spans = append(spans, assignmentSpans(s)...)
		spans = append(spans, cliSpans(s)...)
		spans = append(spans, credentialFileSpans(s)...)
	} else if strings.Contains(s, "login") || strings.Contains(s, "machine") || strings.Contains(s, "config") ||
		strings.Contains(s, "set") || strings.Contains(s, "|") {
		spans = append(spans, cliSpans(s)...)
		spans = append(spans, credentialFileSpans(s)...)
	}
	return mergeSpans(spans)
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// mergeSpans sorts spans by start and joins the overlapping ones; a joined
// span keeps the kind of its first part (for equal starts, of the first
// found, the detectors being in order of specificity).
func mergeSpans(spans []span) []span {
	if len(spans) < 2 {
		return spans
	}
	slices.SortStableFunc(spans, func(a, b span) int { return a.start - b.start })
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.start < last.end {
			last.end = max(last.end, sp.end)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// renderSpans is s with each span (sorted, disjoint, within s) replaced by
// its marker.
func renderSpans(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for _, sp := range spans {
		b.WriteString(s[at:sp.start])
		b.WriteString(redactedPrefix + sp.kind + "]")
		at = sp.end
	}
	b.WriteString(s[at:])
	return b.String()
}
