package install_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/agent/opencode"
	"github.com/agenthooks/agenthooks/install"
	"github.com/tailscale/hujson"
)

const bin = "/opt/agent hooks/bin/agenthooks"

func options(t *testing.T, agent, scope string) install.Options {
	d := t.TempDir()
	root, home := filepath.Join(d, "ws"), filepath.Join(d, "home")
	for _, p := range []string{root, home} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return install.Options{Agent: agent, Scope: scope, Root: root, Home: home, Binary: bin,
		Getenv: func(string) string { return "" }}
}

// settingsFixtures are existing settings files in the styles users write:
// each must survive an install and an uninstall byte for byte.
var settingsFixtures = map[string]string{
	"empty object":  "{}",
	"empty spaced":  "{ }\n",
	"other keys":    "{\n  \"model\": \"opus\",\n  \"permissions\": {\"allow\": [\"Bash(npm test)\"]}\n}\n",
	"tabs":          "{\n\t\"model\": \"opus\"\n}\n",
	"four spaces":   "{\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./mine.sh\"}]}\n        ]\n    }\n}\n",
	"empty hooks":   "{\"hooks\": {}, \"x\": 1}",
	"comments":      "{\n  // my settings\n  \"theme\": \"dark\", /* inline */\n  \"hooks\": {\n    \"Stop\": [] // none yet\n  },\n}\n",
	"trailing":      "{\n  \"a\": [1, 2,],\n  \"b\": true,\n}",
	"no newline":    `{"a":1}`,
	"crlf":          "{\r\n  \"a\": 1\r\n}\r\n",
	"unicode":       "{\n  \"greeting\": \"héllo \\u00e9 ✓\"\n}\n",
	"existing user": "{\n  \"hooks\": {\n    \"SessionStart\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}]}],\n    \"BeforeTool\": [{\"matcher\": \"*\", \"hooks\": [{\"type\": \"command\", \"command\": \"./audit.sh\"}]}]\n  }\n}\n",
}

func TestInstallUninstallRoundTrip(t *testing.T) {
	for _, agent := range wirings.Names() {
		for _, scope := range []string{install.Project, install.User} {
			for name, content := range settingsFixtures {
				t.Run(agent+"/"+scope+"/"+name, func(t *testing.T) {
					o := options(t, agent, scope)
					path, err := wirings.Path(o)
					if err != nil {
						t.Fatal(err)
					}
					writeTestFile(t, path, content)
					ch, err := wirings.Install(o)
					if err != nil {
						t.Fatal(err)
					}
					if ch.Action != "updated" || ch.Backup != path+install.BackupSuffix {
						t.Errorf("install: %+v", ch)
					}
					after := readTestFile(t, path)
					checkInstalled(t, agent, after, content)
					if got := readTestFile(t, ch.Backup); got != content {
						t.Errorf("backup = %q, want the original", got)
					}
					// Idempotent: a second install changes nothing.
					if ch, err := wirings.Install(o); err != nil || ch.Action != "unchanged" {
						t.Errorf("second install: %+v, %v", ch, err)
					}
					ch, err = wirings.Uninstall(o)
					if err != nil || ch.Action != "restored" {
						t.Fatalf("uninstall: %+v, %v", ch, err)
					}
					if got := readTestFile(t, path); got != content {
						t.Errorf("after uninstall:\n got  %q\n want %q", got, content)
					}
					if _, err := os.Stat(path + install.BackupSuffix); !os.IsNotExist(err) {
						t.Errorf("backup left behind: %v", err)
					}
				})
			}
		}
	}
}

// checkInstalled decodes an installed file and checks that every event
// calls agenthooks for the agent, and that the original settings are
// still there.
func checkInstalled(t *testing.T, agent, data, original string) {
	t.Helper()
	a, _ := wirings.Lookup(agent)
	if a.File != nil {
		if !install.Installed(a, []byte(data)) {
			t.Errorf("the %s file does not call agenthooks:\n%s", agent, data)
		}
		return
	}
	v, err := hujson.Standardize([]byte(data))
	if err != nil {
		t.Fatalf("installed file is not JSON: %v\n%s", err, data)
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher string           `json:"matcher"`
			Hooks   []map[string]any `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(v, &doc); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	want := install.CommandLine(bin, agent)
	for _, ev := range a.Events {
		found := false
		for _, g := range doc.Hooks[ev] {
			for _, h := range g.Hooks {
				if h["command"] == want && h["type"] == "command" {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s: no agenthooks hook (%q) in:\n%s", ev, want, data)
		}
	}
	// Every original member is still there, unchanged.
	orig, err := hujson.Standardize([]byte(strings.TrimSpace(original)))
	if err == nil {
		var om, nm map[string]json.RawMessage
		_ = json.Unmarshal(orig, &om)
		_ = json.Unmarshal(v, &nm)
		for k, val := range om {
			if k == "hooks" {
				continue
			}
			if !bytes.Equal(compactJSON(val), compactJSON(nm[k])) {
				t.Errorf("%s changed: %s -> %s", k, val, nm[k])
			}
		}
	}
}

func TestInstallNewFile(t *testing.T) {
	for _, agent := range wirings.Names() {
		t.Run(agent, func(t *testing.T) {
			o := options(t, agent, install.Project)
			path, _ := wirings.Path(o)
			ch, err := wirings.Install(o)
			if err != nil || ch.Action != "created" || ch.Backup != "" {
				t.Fatalf("install: %+v, %v", ch, err)
			}
			checkInstalled(t, agent, readTestFile(t, path), "{}")
			ch, err = wirings.Uninstall(o)
			if err != nil || ch.Action != "removed" {
				t.Fatalf("uninstall: %+v, %v", ch, err)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("file left: %v", err)
			}
			// The folders install made are gone; the root stays.
			entries, err := os.ReadDir(o.Root)
			if err != nil || len(entries) != 0 {
				t.Errorf("root after uninstall: %v, %v", entries, err)
			}
			if ch, err := wirings.Uninstall(o); err != nil || ch.Action != "absent" {
				t.Errorf("second uninstall: %+v, %v", ch, err)
			}
		})
	}
}

// A file edited after the install keeps the edit: only agenthooks' hooks
// are taken out, and the backup stays for the user.
func TestUninstallAfterEdit(t *testing.T) {
	o := options(t, "claude", install.Project)
	path, _ := wirings.Path(o)
	writeTestFile(t, path, "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./mine.sh\"}]}]\n  }\n}\n")
	if _, err := wirings.Install(o); err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(readTestFile(t, path), `"opus"`, `"sonnet"`, 1)
	writeTestFile(t, path, edited)
	ch, err := wirings.Uninstall(o)
	if err != nil || ch.Action != "updated" || ch.Backup == "" {
		t.Fatalf("uninstall: %+v, %v", ch, err)
	}
	want := "{\n  \"model\": \"sonnet\",\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./mine.sh\"}]}]\n  }\n}\n"
	if got := readTestFile(t, path); got != want {
		t.Errorf("after uninstall:\n got  %q\n want %q", got, want)
	}
}

// A new binary path replaces the old hooks rather than adding to them.
func TestReinstallNewBinary(t *testing.T) {
	o := options(t, "gemini", install.User)
	if _, err := wirings.Install(o); err != nil {
		t.Fatal(err)
	}
	o.Binary = "/usr/local/bin/agenthooks"
	ch, err := wirings.Install(o)
	if err != nil || ch.Action != "updated" || ch.Backup != "" {
		t.Fatalf("re-install: %+v, %v", ch, err)
	}
	data := readTestFile(t, ch.Path)
	if strings.Contains(data, "/opt/agent hooks") || strings.Count(data, "/usr/local/bin/agenthooks run --from gemini") != 7 {
		t.Errorf("re-install did not replace the hooks:\n%s", data)
	}
	if ch, err := wirings.Uninstall(o); err != nil || ch.Action != "removed" {
		t.Errorf("uninstall: %+v, %v", ch, err)
	}
}

func TestInstallErrors(t *testing.T) {
	o := options(t, "claude", install.Project)
	path, _ := wirings.Path(o)
	writeTestFile(t, path, `{"hooks": [}`)
	if _, err := wirings.Install(o); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("broken file: %v", err)
	}
	writeTestFile(t, path, `{"hooks": []}`)
	if _, err := wirings.Install(o); err == nil || !strings.Contains(err.Error(), `"hooks" is not an object`) {
		t.Errorf("hooks not an object: %v", err)
	}
	if got := readTestFile(t, path); got != `{"hooks": []}` {
		t.Errorf("a failed install changed the file: %q", got)
	}
	for _, bad := range []install.Options{{Agent: "vim", Scope: install.User, Home: "/h", Binary: bin}, {Agent: "claude", Scope: "team", Binary: bin}} {
		if _, err := wirings.Install(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	o.Binary = "agenthooks"
	if _, err := wirings.Install(o); err == nil || !strings.Contains(err.Error(), "not absolute") {
		t.Errorf("relative binary: %v", err)
	}
}

func TestUserPaths(t *testing.T) {
	env := map[string]string{"CODEX_HOME": "/c", "XDG_CONFIG_HOME": "/x", "GEMINI_CLI_HOME": "/g", "COPILOT_HOME": "/p"}
	want := map[string]string{
		"claude": "/h/.claude/settings.json", "codex": "/c/hooks.json", "gemini": "/g/.gemini/settings.json",
		"copilot": "/p/hooks/agenthooks.json", "opencode": "/x/opencode/plugins/agenthooks.js",
	}
	for agent, w := range want {
		got, err := wirings.Path(install.Options{Agent: agent, Scope: install.User, Home: "/h", Getenv: func(k string) string { return env[k] }})
		if err != nil || got != filepath.FromSlash(w) {
			t.Errorf("%s: %q, %v; want %q", agent, got, err, w)
		}
	}
}

func TestOpenCodePlugin(t *testing.T) {
	s := string(opencode.PluginFile(`/a "b"/agenthooks`))
	if strings.Contains(s, "__AGENTHOOKS_BIN__") || strings.Contains(s, "__TIMEOUT_MS__") {
		t.Fatal("placeholders left in the plugin")
	}
	if !strings.Contains(s, `"/a \"b\"/agenthooks"`) || !strings.Contains(s, "600000") {
		t.Errorf("binary or timeout not substituted")
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readTestFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func compactJSON(b []byte) []byte {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}

// wirings are the agents install wires, as the registry gathers them.
var wirings = agents.Install()
