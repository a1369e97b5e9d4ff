package state

import (
	"strings"
	"testing"
)

// TestRedactionCLI: each credential form, redacted to its marker, the
// rest of the line kept.
func TestRedactionCLI(t *testing.T) {
	for in, want := range map[string]string{
		"az login -u alice -p 'S3cretPw1'":                          "az login -u alice -p '[REDACTED:secret-value]'",
		"redis-cli -h h -a S3cretPw1 ping":                          "redis-cli -h h -a [REDACTED:secret-value] ping",
		"ldapsearch -x -D cn=admin -w S3cretPw1 -b dc=x":            "ldapsearch -x -D cn=admin -w [REDACTED:secret-value] -b dc=x",
		"smbclient //h/s -U alice%S3cretPw1":                        "smbclient //h/s -U alice%[REDACTED:secret-value]",
		"smbclient //h/s --user=alice%S3cretPw1":                    "smbclient //h/s --user=alice%[REDACTED:secret-value]",
		"unzip -P S3cretPw1 a.zip":                                  "unzip -P [REDACTED:secret-value] a.zip",
		"7z x -pS3cretPw1 a.7z":                                     "7z x -p[REDACTED:secret-value] a.7z",
		"vault login s.ABCDEFGH12345678":                            "vault login [REDACTED:secret-value]",
		"kubectl create secret generic x --from-literal=pw=S3cret":  "kubectl create secret generic x --from-literal=pw=[REDACTED:secret-value]",
		"kubectl create secret generic x --from-literal=user=bob":   "kubectl create secret generic x --from-literal=user=[REDACTED:secret-value]",
		"kubectl create configmap x --from-literal=mode=fast":       "kubectl create configmap x --from-literal=mode=fast",
		"sudo docker login -u bob -p S3cretPw1 registry":            "sudo docker login -u bob -p [REDACTED:cli-password] registry",
		"sqlcmd -S db -U sa -P S3cretPw1":                           "sqlcmd -S db -U sa -P [REDACTED:secret-value]",
		"machine example.com login alice password S3cretPw1":        "machine example.com login alice password [REDACTED:secret-value]",
		"default login anon password S3cretPw1":                     "default login anon password [REDACTED:secret-value]",
		"h:5432:db:alice:S3cretPw1":                                 "h:5432:db:alice:[REDACTED:secret-value]",
		"*:*:*:alice:S3cretPw1":                                     "*:*:*:alice:[REDACTED:secret-value]",
		"db_pw: S3cretPw1":                                          "db_pw: [REDACTED:secret-value]",
		"[db]\npassword = S3cretPw1":                                "[db]\npassword = [REDACTED:secret-value]",
		"api_token = \"S3cretPw1\"":                                 "api_token = \"[REDACTED:secret-value]\"",
		"--password S3cretPw1":                                      "--password [REDACTED:secret-value]",
		"tool --secret=S3cretPw1 --key S3cretPw2":                   "tool --secret=[REDACTED:secret-value] --key [REDACTED:secret-value]",
		"curl -ualice:S3cretPw1 https://x":                          "curl -ualice:[REDACTED:cli-password] https://x",
		"git clone https://S3cretToken1abcdefghij@github.com/o/r":   "git clone https://[REDACTED:url-token]@github.com/o/r",
		"echo S3cretPw1 | docker login -u bob --password-stdin":     "echo [REDACTED:secret-value] | docker login -u bob --password-stdin",
		"echo 'S3cretPw1' | sudo -S apt-get update":                 "echo '[REDACTED:secret-value]' | sudo -S apt-get update",
		"echo S3cretPw1 | chpasswd":                                 "echo [REDACTED:secret-value] | chpasswd",
		"npm config set //registry.npmjs.org/:_authToken S3cretTok": "npm config set //registry.npmjs.org/:_authToken [REDACTED:secret-value]",
		"git config user.password S3cretPw1":                        "git config user.password [REDACTED:secret-value]",
		"rclone config create r s3 secret_access_key S3cretPw1":     "rclone config create r s3 secret_access_key [REDACTED:secret-value]",
		"gh secret set FOO --body S3cretPw1":                        "gh secret set FOO --body [REDACTED:secret-value]",
		"ssh-keygen -p -P OldS3cret1 -N NewS3cret2 -f k":            "ssh-keygen -p -P [REDACTED:secret-value] -N [REDACTED:secret-value] -f k",
		"machine api.heroku.com\n  login bob\n  password S3cretPw1": "machine api.heroku.com\n  login bob\n  password [REDACTED:secret-value]",
		"DB_PASSWORD=mypassword":                                    "DB_PASSWORD=[REDACTED:secret-value]",
	} {
		if got := renderSpans(in, secretSpans(in)); got != want {
			t.Errorf("%q\n got %q\nwant %q", in, got, want)
		}
	}
}

// ordinaryLines are command lines and file lines with no secret, many of
// them with the short options (-p, -P, -a, -w, -U, -u) that mean a
// password for other programs, and user:value forms that are not
// credentials.
var ordinaryLines = []string{
	"mkdir -p a/b/c", "ssh -p 2222 host", "scp -P 2222 f host:", "git log -p", "git add -p",
	"docker run -p 8080:80 -u 1000:1000 img", "docker run --user 1000:1000 img", "kubectl port-forward svc/x 8080:80",
	"grep -P '\\d+' f", "ps -p 1234", "cp -p a b", "ls -a", "tar -xzf a.tar.gz -C out", "rsync -a src/ dst/",
	"patch -p1 < fix.diff", "python -W error -m pytest -p no:cacheprovider", "pip install -U requests",
	"sort -u names.txt", "psql -U postgres -d app -c 'select 1'", "mysql -u root -p app", "mysql -h db -P 3306 app",
	"npm publish --access public", "go test -run TestX -p 1 ./...", "make -j4 -w", "wc -w file", "curl -w '%{http_code}' https://x",
	"redis-cli -h cache ping", "az group list -o table", "ldapsearch -x -b dc=example", "unzip -l a.zip", "7z l a.7z",
	"vault status", "vault login -method=oidc", "kubectl get secret db -o yaml", "host: db.example.com", "port: 5432",
	"user: alice", "timeout: 30s", "key_count: 4", "max_tokens: 1024", "scp file user@host:/tmp/", "git push origin HEAD:main",
	"time: 12:30:45", "url: http://localhost:8080/path", "ssh -o User=deploy host", "chown -R www:www /srv",
	"echo machine learning is fun", "default: true",
	// Source code and references name secrets without holding one.
	"const password = req.body.password;", `password = os.environ["DB_PASSWORD"]`,
	"func (c *Client) SetToken(token string) { c.token = token }", `"password": { "type": "string", "minLength": 8 }`,
	"secretKeyRef: {name: db, key: password}", `curl -H "Authorization: Bearer $TOKEN" https://api`,
	"git config credential.helper store", "npm config set registry https://registry.npmjs.org/",
	"git clone ssh://git@github.com/org/repo.git", "https://user@example.com/path", "echo hello | grep h",
	"printf 'a\nb\n' | sort", "ssh-keygen -t ed25519 -f key -C bob@example.com", "gh secret list",
}

// TestRedactionFalseMatches measures what redaction takes from lines
// that hold no secret: none may lose anything.
func TestRedactionFalseMatches(t *testing.T) {
	redacted := 0
	for _, l := range ordinaryLines {
		if got := renderSpans(l, secretSpans(l)); got != l {
			redacted++
			t.Errorf("false redaction: %q became %q", l, got)
		}
	}
	t.Logf("%d of %d ordinary lines redacted", redacted, len(ordinaryLines))
	if !strings.Contains(renderSpans(ordinaryLines[0], nil), "mkdir") {
		t.Fatal("renderSpans lost the line")
	}
}
