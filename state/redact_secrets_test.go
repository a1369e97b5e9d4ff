package state

import (
	"strings"
	"testing"
)

// Fake secrets of each shape, built at run time so that no scanner takes
// this file for a leak.
var (
	fakeAWS       = "AKIA" + "IOSFODNN7EXAMPLE"
	fakeGitHub    = "ghp_" + strings.Repeat("a1B2", 9)
	fakeGitHubPAT = "github_pat_" + strings.Repeat("11AB", 6) + "_" + strings.Repeat("xY9", 20)
	fakeSlack     = "xoxb-" + "1234567890-0987654321-" + strings.Repeat("Ab", 12)
	fakeStripe    = "sk_live_" + strings.Repeat("4eC39HqLyjWDarjtT1zdp7dc", 1)
	fakeGoogle    = "AIza" + strings.Repeat("Sy", 17) + "Q"
	fakeOpenAI    = "sk-proj-" + strings.Repeat("T3BlbkFJ", 5)
	fakeAnthropic = "sk-ant-api03-" + strings.Repeat("Zx8_", 10)
	fakeJWT       = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + "." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0" + "." + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	fakePEM       = "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aumUnN\nq4Lm7rH/ZQ==\n-----END RSA " + "PRIVATE KEY-----"
)

func TestSecretPatterns(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"aws", "key " + fakeAWS + " here", "key [REDACTED:aws-access-key] here"},
		{"github", "push with " + fakeGitHub, "push with [REDACTED:github-token]"},
		{"github pat", "GH=" + fakeGitHubPAT, "GH=[REDACTED:github-token]"},
		{"slack", "slack " + fakeSlack + " end", "slack [REDACTED:slack-token] end"},
		{"stripe", "stripe(" + fakeStripe + ")", "stripe([REDACTED:stripe-key])"},
		{"google", "?key2=x&k " + fakeGoogle, "?key2=x&k [REDACTED:google-api-key]"},
		{"openai", "use " + fakeOpenAI + ".", "use [REDACTED:openai-key]."},
		{"anthropic", "use " + fakeAnthropic, "use [REDACTED:anthropic-key]"},
		{"jwt", "cookie jar " + fakeJWT + " ok", "cookie jar [REDACTED:jwt] ok"},
		{"pem", "key:\n" + fakePEM + "\nafter", "key:\n[REDACTED:private-key]\nafter"},
		{"pem cut off", "x " + fakePEM[:60], "x [REDACTED:private-key]"},
		{"bearer header", `curl -H "Authorization: Bearer abc.def-123456" https://api`, `curl -H "Authorization: Bearer [REDACTED:authorization]" https://api`},
		{"basic header", "Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [REDACTED:authorization]"},
		{"bare bearer", "send bearer 0123456789abcdef now", "send bearer [REDACTED:bearer-token] now"},
		{"curl -u", "curl -u admin:Hunter2Secret9 https://x", "curl -u admin:[REDACTED:cli-password] https://x"},
		{"mysql -p", "mysql -h db -u root -pS3cretPw db", "mysql -h db -u root -p[REDACTED:cli-password] db"},
		{"sshpass", "sshpass -p Hunter2 ssh host", "sshpass -p [REDACTED:cli-password] ssh host"},
		{"docker login", "docker login -u me -p Hunter2 registry", "docker login -u me -p [REDACTED:cli-password] registry"},
		{"htpasswd", "htpasswd -b .htpasswd admin Hunter2", "htpasswd -b .htpasswd admin [REDACTED:cli-password]"},
		{"openssl", "openssl enc -aes256 -k Hunter2 -in f", "openssl enc -aes256 -k [REDACTED:cli-password] -in f"},
		{"aws configure", "aws configure set aws_secret_access_key wJalrXUtnFEMI", "aws configure set aws_secret_access_key [REDACTED:cli-password]"},
		{"escaped blanks", `PASSWORD=ab\ cd\ SECRETTAIL ./run`, `PASSWORD=[REDACTED:secret-value] ./run`},
		{"mkdir -p is no password", "mkdir -p build/out", "mkdir -p build/out"},
		{"url password", "git clone https://bob:hunter2@example.com/r.git", "git clone https://bob:[REDACTED:url-password]@example.com/r.git"},
		{"postgres url", "DSN postgres://app:s3cr%40t@db:5432/x", "DSN postgres://app:[REDACTED:url-password]@db:5432/x"},
		{"env line", "API_KEY=abc123\nDEBUG=1", "API_KEY=[REDACTED:secret-value]\nDEBUG=1"},
		{"export line", "export GITHUB_TOKEN=abc123\n", "export GITHUB_TOKEN=[REDACTED:secret-value]\n"},
		{"yaml", "db:\n  password: my pass phrase\n  user: bob", "db:\n  password: [REDACTED:secret-value]\n  user: bob"},
		{"yaml list", "- secret: x1", "- secret: [REDACTED:secret-value]"},
		{"quoted", `client_secret = "a b c" # note`, `client_secret = "[REDACTED:secret-value]" # note`},
		{"json in a string", `{"apiKey":"abc","user":"bob"}`, `{"apiKey":"[REDACTED:secret-value]","user":"bob"}`},
		{"inline env prefix", "AWS_SECRET_ACCESS_KEY=wJalrX aws s3 ls", "AWS_SECRET_ACCESS_KEY=[REDACTED:secret-value] aws s3 ls"},
		{"query string", "GET /cb?access_token=abc&state=1", "GET /cb?access_token=[REDACTED:secret-value]&state=1"},
		{"flag with =", "mysql --password=hunter2 db", "mysql --password=[REDACTED:secret-value] db"},
		{"flag with space", "gh auth --token abc123 x", "gh auth --token [REDACTED:secret-value] x"},
		{"php arrow", `'password' => 'x1'`, `'password' => '[REDACTED:secret-value]'`},
		{"camel case", "dbPassword: x", "dbPassword: [REDACTED:secret-value]"},
		{"several", fakeAWS + " " + fakeGitHub, "[REDACTED:aws-access-key] [REDACTED:github-token]"},

		// Not secrets.
		{"go short assignment", "key := cfg.Key()", "key := cfg.Key()"},
		{"comparison", "if token == nil {", "if token == nil {"},
		{"author", "author: Jane", "author: Jane"},
		{"passed", "passed: 12", "passed: 12"},
		{"max tokens", "max_tokens: 100", "max_tokens: 100"},
		{"keyboard", "keyboard=us", "keyboard=us"},
		{"plain command", "git push origin main", "git push origin main"},
		{"path", "/home/u/.ssh/id_rsa.pub", "/home/u/.ssh/id_rsa.pub"},
		{"sk prefix inside a word", "risk-assessment-of-the-whole-thing-here", "risk-assessment-of-the-whole-thing-here"},
		{"empty value", "TOKEN=\nX=1", "TOKEN=\nX=1"},
		{"already redacted", "TOKEN=[REDACTED:github-token]", "TOKEN=[REDACTED:github-token]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := redactString(tt.in)
			if got != tt.want {
				t.Errorf("redactString(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := redactString(got); again != got {
				t.Errorf("redacting twice changes %q to %q", got, again)
			}
		})
	}
}

func TestSecretNames(t *testing.T) {
	for name, want := range map[string]bool{
		"API_KEY": true, "apiKey": true, "APIKey": true, "apikey": true, "GITHUB_TOKEN": true, "clientSecret": true,
		"db.password": true, "DB_PASS": true, "MYSQL_PWD": true, "aws_secret_access_key": true, "Authorization": true,
		"GOOGLE_APPLICATION_CREDENTIALS": true, "private_key": true, "x-auth": true, "session_cookie": true,
		"secrets": true, "passphrase": true, "authToken": true,
		"author": false, "passed": false, "max_tokens": false, "keys": false, "keyboard": false, "command": false,
		"file_path": false, "content": false, "conversation_id": false, "permission": false, "tool_name": false,
		"bypass": false, "compass": false, "": false,
	} {
		if got := isSecretName(name); got != want {
			t.Errorf("isSecretName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestEnvFileSpans(t *testing.T) {
	in := strings.Join([]string{
		"# database",
		"DB_HOST=localhost",
		"export PORT=5432",
		`GREETING="hello world" # comment`,
		"EMPTY=",
		"SINGLE='x'",
		`MULTI="line one`,
		"line two",
		`end"`,
		"AFTER=1",
		"  not an assignment",
		"",
		"YAML_STYLE: value\r",
	}, "\n")
	want := strings.Join([]string{
		"# database",
		"DB_HOST=[REDACTED:env-value]",
		"export PORT=[REDACTED:env-value]",
		`GREETING="[REDACTED:env-value]" # comment`,
		"EMPTY=",
		"SINGLE='[REDACTED:env-value]'",
		`MULTI="[REDACTED:env-value]`,
		"[REDACTED:env-value]",
		`[REDACTED:env-value]"`,
		"AFTER=[REDACTED:env-value]",
		"  [REDACTED:env-value]",
		"",
		"YAML_STYLE: [REDACTED:env-value]\r",
	}, "\n")
	if got := renderSpans(in, mergeSpans(envFileSpans(in))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for path, want := range map[string]bool{
		"/p/.env": true, ".env.local": true, `C:\p\.env.production`: true, "/p/prod.env": true,
		"/p/env.go": false, "/p/.envrc": false, "/p/environment": false,
	} {
		if got := isEnvFile(path); got != want {
			t.Errorf("isEnvFile(%q) = %v, want %v", path, got, want)
		}
	}
}

func FuzzRedactString(f *testing.F) {
	for _, s := range []string{"API_KEY=x\n", fakePEM[:40], "a: 'b\nc", "MULTI=\"x\ny\"", "--token ", "Authorization: Bearer x", "é" + fakeGitHub} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		if limit < 1 || limit > 1<<16 {
			return
		}
		spans := mergeSpans(append(envFileSpans(s), secretSpans(s)...))
		for i, sp := range spans {
			if sp.start < 0 || sp.end > len(s) || sp.start >= sp.end || i > 0 && sp.start < spans[i-1].end {
				t.Fatalf("bad span %+v in %q", sp, s)
			}
		}
		_ = renderSpans(s, spans)
		r := &redactor{limit: limit, otherLimit: limit, budget: -1}
		_ = r.str("", s)
		_ = r.str("content", s)
	})
}

// redactString is s with its secrets replaced by markers.
func redactString(s string) string {
	return renderSpans(s, secretSpans(s))
}

// Every detector's pattern compiles: they are compiled only when first
// needed, so a bad one would otherwise fail in a user's run.
func TestDetectorsCompile(t *testing.T) {
	for _, d := range detectors {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: %v", d.kind, p)
				}
			}()
			if d.re() == nil {
				t.Errorf("%s: no pattern", d.kind)
			}
		}()
	}
}
