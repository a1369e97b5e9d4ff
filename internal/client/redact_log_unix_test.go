//go:build unix

package client_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// credentialForms are secrets given in the forms programs and credential
// files take them, each with the secret (unique per form) that the log
// must not keep.
var credentialForms = []struct{ command, secret string }{
	{"az login -u alice -p 'AzS3cret-1'", "AzS3cret-1"},
	{"redis-cli -h cache -a RedisS3cret-2 ping", "RedisS3cret-2"},
	{"ldapsearch -x -D cn=admin -w LdapS3cret-3 -b dc=example", "LdapS3cret-3"},
	{"smbclient //files/share -U alice%SmbS3cret-4", "SmbS3cret-4"},
	{"unzip -P ZipS3cret-5 archive.zip", "ZipS3cret-5"},
	{"7z x -pSevenS3cret-6 archive.7z", "SevenS3cret-6"},
	{"vault login s.VaultS3cret7", "s.VaultS3cret7"},
	{"kubectl create secret generic db --from-literal=pw=KubeS3cret-8", "KubeS3cret-8"},
	{"deploy --password PwS3cret-9", "PwS3cret-9"},
	{"deploy --token=TokS3cret-10", "TokS3cret-10"},
	{"curl -u alice:CurlS3cret-11 https://example.com", "CurlS3cret-11"},
	{"mysql -u root -pMysqlS3cret-17 app", "MysqlS3cret-17"},
	{"curl -ualice:CurlS3cret-18 https://example.com", "CurlS3cret-18"},
	{"git clone https://UrlTok3nS3cret19abcdefgh@github.com/o/r", "UrlTok3nS3cret19abcdefgh"},
	{"git clone https://bob:UrlS3cret-20@github.com/o/r", "UrlS3cret-20"},
	{"curl -H 'Authorization: Bearer BearerS3cret21abc' https://api", "BearerS3cret21abc"},
	{"AWS_SECRET_ACCESS_KEY=AwsS3cret22abcdef aws s3 ls", "AwsS3cret22abcdef"},
	{"export GITHUB_TOKEN=GhS3cret-23", "GhS3cret-23"},
	{"deploy --password=PwS3cret-24", "PwS3cret-24"},
	{"echo StdinS3cret-25 | docker login -u bob --password-stdin registry", "StdinS3cret-25"},
	{"npm config set //registry.npmjs.org/:_authToken NpmS3cret-26", "NpmS3cret-26"},
	{"ssh-keygen -p -N KeygenS3cret-27 -f key", "KeygenS3cret-27"},
}

// fileForms are credential files a hook is shown (beforeReadFile), each
// with its secret.
var fileForms = []struct{ path, content, secret string }{
	{".netrc", "machine example.com login alice password NetrcS3cret-12\n", "NetrcS3cret-12"},
	{".pgpass", "db.example.com:5432:app:alice:PgS3cret-13\n", "PgS3cret-13"},
	{"config.yaml", "db:\n  host: db\n  db_pw: YamlS3cret-14\n", "YamlS3cret-14"},
	{"app.ini", "[db]\npassword = IniS3cret-15\n", "IniS3cret-15"},
	{"app.toml", "[db]\napi_token = \"TomlS3cret-16\"\n", "TomlS3cret-16"},
	{"settings.json", "{\"db\": {\"password\": \"JsonS3cret-28\"}}\n", "JsonS3cret-28"},
	{".env", "API_KEY=EnvS3cret-29\nPLAIN=EnvValue-30\n", "EnvValue-30"},
	{"id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\nKeyS3cret31b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n", "KeyS3cret31"},
	{".netrc", "machine api.example.com\n  login bob\n  password NetrcS3cret-32\n", "NetrcS3cret-32"},
}

// TestLogRedactsCredentialForms runs steps whose payloads carry secrets in
// each form and reads the log back as a user does, `agenthooks log
// --json`: no secret is there, each step is.
func TestLogRedactsCredentialForms(t *testing.T) {
	w := newWorld(t)
	hook := filepath.Join(w.home, "ok.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ncat >/dev/null\necho '{}'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.userHooks(`{"version":1,"hooks":{"beforeShellExecution":[{"command":"` + hook + `"}],"beforeReadFile":[{"command":"` + hook + `"}]}}`)
	off := []string{"AGENTHOOKS_ENGINE=off"}
	for _, f := range credentialForms {
		payload, _ := json.Marshal(map[string]any{"command": f.command, "cwd": w.ws, "hook_event_name": "beforeShellExecution"})
		if r := w.run(string(payload), off, "run", "beforeShellExecution"); r.code != 0 {
			t.Fatalf("%s: %+v", f.command, r)
		}
	}
	for _, f := range fileForms {
		payload, _ := json.Marshal(map[string]any{"file_path": filepath.Join(w.ws, f.path), "content": f.content, "hook_event_name": "beforeReadFile"})
		if r := w.run(string(payload), off, "run", "beforeReadFile"); r.code != 0 {
			t.Fatalf("%s: %+v", f.path, r)
		}
	}
	r := w.run("", off, "log", "--json", "--limit", "0")
	if r.code != 0 {
		t.Fatalf("log: %+v", r)
	}
	for _, f := range credentialForms {
		if strings.Contains(r.out, f.secret) {
			t.Errorf("the log keeps the secret of %q", f.command)
		}
		prefix, _, _ := strings.Cut(f.command, f.secret)
		if !strings.Contains(r.out, jsonText(prefix)) {
			t.Errorf("the log lacks the step of %q (as %q)", f.command, jsonText(prefix))
		}
	}
	for _, f := range fileForms {
		if strings.Contains(r.out, f.secret) {
			t.Errorf("the log keeps the secret of %s", f.path)
		}
		if !strings.Contains(r.out, f.path) {
			t.Errorf("the log lacks the read of %s", f.path)
		}
	}
	if t.Failed() {
		t.Logf("log:\n%s", r.out)
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
