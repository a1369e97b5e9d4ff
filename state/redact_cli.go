package state

import (
	"strings"

	"github.com/agenthooks/agenthooks/internal/lazyre"
)

// Secrets that command lines and credential files carry in forms of their
// own, found without a detector per program where a general form exists:
//
//   - the value of an option that a program is known to take a password
//     or token with (passwordOpts): az -p, redis-cli -a, ldapsearch -w,
//     unzip -P, 7z -pSECRET, sqlcmd -P, …; options whose own name says
//     secret (--password, --token, --secret, --api-key) are the
//     assignments' (redact_assign.go), whatever the program;
//   - a user%secret or user:secret credential given to an option that
//     names a user (-U, --user, --username, --creds): smbclient -U
//     alice%pw, curl -u alice:pw;
//   - vault login TOKEN, and kubectl's --from-literal=KEY=VALUE in a
//     `create secret` (every value) or for a key that says secret;
//   - netrc lines (machine … login … password SECRET) and .pgpass lines
//     (host:port:db:user:SECRET).
//
// Short options like -p mean a password only for the programs listed:
// mkdir -p, ssh -p 22, git log -p and docker run -p 8080:80 are kept
// (TestRedactionFalseMatches counts what is redacted that should not be).

// passwordOpt is an option that takes a secret: attached means the value
// may follow the option in the same word (-pSECRET), separate that it
// may be the next word (-p SECRET).
type passwordOpt struct {
	name               string
	attached, separate bool
}

// passwordOpts are the programs that take a password or token with a
// short option (or a long one whose name does not say secret).
var passwordOpts = map[string][]passwordOpt{
	"az":           {{"-p", false, true}},
	"redis-cli":    {{"-a", false, true}, {"--pass", false, true}},
	"ldapsearch":   {{"-w", false, true}},
	"ldapmodify":   {{"-w", false, true}},
	"ldapadd":      {{"-w", false, true}},
	"ldapdelete":   {{"-w", false, true}},
	"ldapwhoami":   {{"-w", false, true}},
	"ldappasswd":   {{"-w", false, true}, {"-s", false, true}},
	"unzip":        {{"-P", false, true}},
	"zip":          {{"-P", false, true}},
	"zipcloak":     {{"-P", false, true}},
	"7z":           {{"-p", true, false}},
	"7za":          {{"-p", true, false}},
	"7zr":          {{"-p", true, false}},
	"rar":          {{"-p", true, false}},
	"unrar":        {{"-p", true, false}},
	"sqlcmd":       {{"-P", true, true}},
	"bcp":          {{"-P", true, true}},
	"mongo":        {{"-p", false, true}},
	"mongosh":      {{"-p", false, true}},
	"mongodump":    {{"-p", false, true}},
	"mongorestore": {{"-p", false, true}},
	"mongoexport":  {{"-p", false, true}},
	"mongoimport":  {{"-p", false, true}},
	"sshpass":      {{"-p", true, true}},
	"mysql":        {{"-p", true, false}},
	"mysqldump":    {{"-p", true, false}},
	"mysqladmin":   {{"-p", true, false}},
	"mariadb":      {{"-p", true, false}},
	"mariadb-dump": {{"-p", true, false}},
	"psexec":       {{"-p", false, true}},
	"winrm":        {{"-p", false, true}},
	"ncftp":        {{"-p", false, true}},
	"keytool":      {{"-storepass", false, true}, {"-keypass", false, true}, {"-srcstorepass", false, true}, {"-deststorepass", false, true}},
	"openssl":      {{"-k", false, true}, {"-pass", false, true}, {"-passin", false, true}, {"-passout", false, true}},
	"gpg":          {{"--passphrase", false, true}},
	"ssh-keygen":   {{"-N", false, true}, {"-P", false, true}},
	"gh":           {{"--body", false, true}, {"-b", false, true}},
	"docker":       {{"-p", false, true}},
	"podman":       {{"-p", false, true}},
	"nerdctl":      {{"-p", false, true}},
}

// passwordSubcommand restricts a program's options to one subcommand:
// docker -p is a password only for `docker login` (else a port).
var passwordSubcommand = map[string]string{"docker": "login", "podman": "login", "nerdctl": "login", "gh": "secret"}

// userOpts are options whose value names a user, and may carry the
// user's secret after a ':' or '%' (-u is curl's, a detector of its own:
// elsewhere -u 1000:1000 is a uid and gid).
var userOpts = map[string]bool{"-U": true, "--user": true, "--username": true,
	"--creds": true, "--credentials": true, "--proxy-user": true, "--auth": true}

// cliWord is one word of a command line, as a shell would split it
// roughly: quotes removed from the span reported, the span within the
// text kept.
type cliWord struct {
	text       string // with quotes removed
	start, end int    // the value's span in the line (inside its quotes)
	sep        bool   // a command separator: ; & | && || newline
}

// cliWords splits one line into words, keeping the spans.
func cliWords(s string, base int) []cliWord {
	var out []cliWord
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == ';' || c == '&' || c == '|' || c == '(' || c == ')':
			out = append(out, cliWord{sep: true, start: base + i, end: base + i + 1})
			i++
			continue
		}
		start := i
		var b strings.Builder
		vs, ve := -1, -1
		for i < len(s) && strings.IndexByte(" \t\r;&|()", s[i]) < 0 {
			switch s[i] {
			case '\'', '"':
				q := s[i]
				j := strings.IndexByte(s[i+1:], q)
				if j < 0 {
					j = len(s) - i - 1
				}
				if vs < 0 {
					vs = i + 1
				}
				b.WriteString(s[i+1 : i+1+j])
				ve = i + 1 + j
				i += j + 2
			case '\\':
				if i+1 < len(s) {
					b.WriteByte(s[i+1])
				}
				i += 2
			default:
				if vs < 0 {
					vs = i
				}
				b.WriteByte(s[i])
				i++
				ve = i
			}
		}
		i = min(i, len(s))
		if vs < 0 {
			vs, ve = start, start
		}
		out = append(out, cliWord{text: b.String(), start: base + vs, end: base + ve})
	}
	return out
}

// programName is a command word's program: its base name, without .exe.
func programName(w string) string {
	if i := strings.LastIndexAny(w, `/\`); i >= 0 {
		w = w[i+1:]
	}
	return strings.TrimSuffix(strings.ToLower(w), ".exe")
}

// cliSpans finds the secrets of command lines in s, line by line.
func cliSpans(s string) []span {
	var spans []span
	at := 0
	for line := range strings.SplitSeq(s, "\n") {
		if strings.ContainsAny(line, "-%:") || strings.Contains(line, "login") || strings.Contains(line, "set") || strings.Contains(line, "config") || strings.Contains(line, "|") {
			words := cliWords(line, at)
			spans = append(spans, lineCLISpans(words)...)
			if strings.Contains(line, "|") {
				spans = append(spans, stdinSecretSpans(words)...)
			}
		}
		at += len(line) + 1
	}
	return spans
}

// lineCLISpans reads the commands of one line's words.
func lineCLISpans(words []cliWord) []span {
	var spans []span
	prog, sub, argn := "", "", 0
	secretCmd := false
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w.sep {
			prog, sub, argn, secretCmd = "", "", 0, false
			continue
		}
		if prog == "" {
			if strings.Contains(w.text, "=") && !strings.HasPrefix(w.text, "-") {
				continue // NAME=value before the program
			}
			prog = programName(w.text)
			if prog == "sudo" || prog == "env" || prog == "command" || prog == "exec" || prog == "time" {
				prog = ""
			}
			continue
		}
		argn++
		if argn == 1 && !strings.HasPrefix(w.text, "-") {
			sub = w.text
		}
		if sub == "secret" || prog == "kubectl" && w.text == "secret" {
			secretCmd = true
		}
		val := func(start int) (span, bool) {
			if w.start+start >= w.end || strings.HasPrefix(w.text[start:], redactedPrefix) {
				return span{}, false
			}
			return span{w.start + start, w.end, "secret-value"}, true
		}
		next := func() (span, bool) {
			if i+1 >= len(words) || words[i+1].sep || words[i+1].start >= words[i+1].end ||
				strings.HasPrefix(words[i+1].text, redactedPrefix) {
				return span{}, false
			}
			i++
			return span{words[i].start, words[i].end, "secret-value"}, true
		}
		// Options a program takes a password with.
		if want, ok := passwordSubcommand[prog]; !ok || sub == want {
			for _, o := range passwordOpts[prog] {
				switch {
				case w.text == o.name && o.separate:
					if sp, ok := next(); ok {
						spans = append(spans, sp)
					}
				case strings.HasPrefix(w.text, o.name+"="):
					if sp, ok := val(len(o.name) + 1); ok {
						spans = append(spans, sp)
					}
				case o.attached && len(w.text) > len(o.name) && strings.HasPrefix(w.text, o.name) && !strings.HasPrefix(w.text, "--"):
					if sp, ok := val(len(o.name)); ok {
						spans = append(spans, sp)
					}
				}
			}
		}
		// user%secret, user:secret given to an option that names a user.
		name, inline, hasInline := strings.Cut(w.text, "=")
		if userOpts[name] && strings.HasPrefix(w.text, "-") {
			value, off, ok := inline, len(name)+1, hasInline
			if !hasInline && i+1 < len(words) && !words[i+1].sep {
				value, off, ok = words[i+1].text, -1, true
			}
			if ok {
				if j := strings.IndexAny(value, "%:"); j > 0 && j < len(value)-1 && !strings.HasPrefix(value[j+1:], redactedPrefix) &&
					strings.Trim(value[:j], "0123456789") != "" { // uid:gid is no secret
					if off < 0 {
						spans = append(spans, span{words[i+1].start + j + 1, words[i+1].end, "secret-value"})
						i++
					} else {
						spans = append(spans, span{w.start + off + j + 1, w.end, "secret-value"})
					}
				}
			}
		}
		// A configuration's secret-named key and its value: npm config
		// set //host/:_authToken VALUE, git config user.password VALUE,
		// rclone config create r s3 secret_access_key VALUE.
		if (sub == "config" || i > 0 && words[i-1].text == "set") && !strings.HasPrefix(w.text, "-") &&
			!strings.Contains(w.text, "=") && isSecretName(lastSegment(w.text)) && i+1 < len(words) &&
			!words[i+1].sep && !strings.HasPrefix(words[i+1].text, "-") {
			if sp, ok := next(); ok {
				spans = append(spans, sp)
			}
			continue
		}
		// vault login TOKEN.
		if prog == "vault" && sub == "login" && argn > 1 && !strings.HasPrefix(w.text, "-") && !strings.Contains(w.text, "=") {
			if sp, ok := val(0); ok {
				spans = append(spans, sp)
			}
		}
		// kubectl --from-literal=KEY=VALUE.
		if rest, ok := strings.CutPrefix(w.text, "--from-literal="); ok {
			if key, _, ok := strings.Cut(rest, "="); ok && (secretCmd || isSecretName(key)) {
				if sp, ok := val(len("--from-literal=") + len(key) + 1); ok {
					spans = append(spans, sp)
				}
			}
		}
	}
	return spans
}

// lastSegment is a configuration key's last part: _authToken of
// //registry.npmjs.org/:_authToken, password of user.password.
func lastSegment(key string) string {
	if i := strings.LastIndexAny(key, ":/."); i >= 0 {
		return key[i+1:]
	}
	return key
}

// stdinSecretSpans finds a secret echoed into a program that reads it
// from its standard input: `echo PW | docker login --password-stdin`,
// `echo PW | sudo -S …`, `printf PW | chpasswd`. Every operand of the
// echo or printf is redacted.
func stdinSecretSpans(words []cliWord) []span {
	var spans []span
	start := 0
	for k := 0; k <= len(words); k++ {
		if k < len(words) && !words[k].sep {
			continue
		}
		// words[start:k] is one command; k is its separator.
		if k < len(words) && words[k].start < words[k].end && k+1 < len(words) && !words[k+1].sep && start < k {
			prog := programName(words[start].text)
			if (prog == "echo" || prog == "printf") && readsSecretStdin(words[k+1:]) {
				for _, w := range words[start+1 : k] {
					if !strings.HasPrefix(w.text, "-") && w.start < w.end && !strings.HasPrefix(w.text, redactedPrefix) {
						spans = append(spans, span{w.start, w.end, "secret-value"})
					}
				}
			}
		}
		start = k + 1
	}
	return spans
}

// readsSecretStdin reports a command (up to its separator) that reads a
// password from its standard input.
func readsSecretStdin(words []cliWord) bool {
	prog := ""
	for _, w := range words {
		if w.sep {
			return false
		}
		t := w.text
		if prog == "" {
			prog = programName(t)
			if prog == "chpasswd" {
				return true
			}
			continue
		}
		switch {
		case strings.HasSuffix(t, "-stdin") && strings.HasPrefix(t, "--"): // --password-stdin, --passphrase-stdin
			return true
		case prog == "sudo" && len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.Contains(t, "S"):
			return true
		case prog == "passwd" && t == "--stdin":
			return true
		}
	}
	return false
}

// netrcRe finds the secret of a netrc line: the word after password
// (or passwd, account) on a line that also says machine, default or login.
var netrcRe = lazyre.New(`(?m)^[ \t]*(?:machine|default)\b[^\n]*?\b(?:password|passwd|account)[ \t]+([^\s]+)`)

// netrcTokenRe finds a netrc password on a line of its own (netrc's
// tokens may be spread over lines), in a text that has a machine line.
var netrcTokenRe = lazyre.New(`(?m)^[ \t]*(?:password|passwd|account)[ \t]+([^\s]+)`)

// netrcMachineRe finds a netrc machine or default line.
var netrcMachineRe = lazyre.New(`(?m)^[ \t]*(?:machine[ \t]+\S+|default)(?:[ \t]|$)`)

// pgpassRe finds the password of a .pgpass line: host:port:db:user:pw.
var pgpassRe = lazyre.New(`(?m)^[^:\s#]+:(?:[0-9]+|\*):[^:\s]+:[^:\s]+:([^\s]+)$`)

// credentialFileSpans finds the secrets of netrc and .pgpass lines.
func credentialFileSpans(s string) []span {
	var spans []span
	if strings.Contains(s, "machine") || strings.Contains(s, "default") {
		for _, m := range netrcRe().FindAllStringSubmatchIndex(s, -1) {
			if !strings.HasPrefix(s[m[2]:], redactedPrefix) {
				spans = append(spans, span{m[2], m[3], "secret-value"})
			}
		}
		if strings.Contains(s, "\n") && netrcMachineRe().MatchString(s) {
			for _, m := range netrcTokenRe().FindAllStringSubmatchIndex(s, -1) {
				if !strings.HasPrefix(s[m[2]:], redactedPrefix) {
					spans = append(spans, span{m[2], m[3], "secret-value"})
				}
			}
		}
	}
	if strings.Count(s, ":") >= 4 {
		for _, m := range pgpassRe().FindAllStringSubmatchIndex(s, -1) {
			if !strings.HasPrefix(s[m[2]:], redactedPrefix) {
				spans = append(spans, span{m[2], m[3], "secret-value"})
			}
		}
	}
	return spans
}
