package install_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent/codex"
	"github.com/agenthooks/agenthooks/agent/copilot"
	"github.com/agenthooks/agenthooks/agent/gemini"
	"github.com/agenthooks/agenthooks/install"
)

// codexConfigs are config.toml files as users and Codex write them: each
// must come back byte for byte after a trust and an uninstall.
var codexConfigs = map[string]string{
	"none":       "",
	"model only": "model = \"gpt-5\"\n",
	"no newline": "model = \"gpt-5\"",
	"comments":   "# mine\nmodel = \"gpt-5\" # the best\n\n[features]\nhooks = true\n",
	"crlf":       "model = \"gpt-5\"\r\n[features]\r\nhooks = true\r\n",
	"projects":   "[projects.\"/elsewhere\"]\ntrust_level = \"trusted\"\n\n[mcp_servers.x]\ncommand = \"x\"\n",
	"state":      "[hooks.state]\n\n[hooks.state.\"/other/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:00\"\n",
	"untrusted":  "[projects.\"ROOT\"]\ntrust_level = \"untrusted\"\n",
	"empty tbl":  "[projects.\"ROOT\"]\n\n[other]\na = 1\n",
}

func TestCodexTrustRoundTrip(t *testing.T) {
	for _, scope := range []string{install.Project, install.User} {
		for name, content := range codexConfigs {
			t.Run(scope+"/"+name, func(t *testing.T) {
				o := options(t, "codex", scope)
				cfg := filepath.Join(o.Home, ".codex", "config.toml")
				content = strings.ReplaceAll(content, "ROOT", o.Root)
				if name != "none" {
					writeTestFile(t, cfg, content)
				}
				if _, err := wirings.Install(o); err != nil {
					t.Fatal(err)
				}
				gates, err := wirings.Gates(o)
				if err != nil {
					t.Fatal(err)
				}
				// Every event's hook is reviewed, and a project is trusted.
				want := len(lookupMust("codex").Events)
				if scope == install.Project {
					want++
				}
				if len(gates) != want {
					t.Fatalf("%d gates, want %d: %+v", len(gates), want, gates)
				}
				for _, g := range gates {
					if g.Open {
						t.Errorf("open before trust: %+v", g)
					}
				}
				gates, err = wirings.Trust(o)
				if err != nil {
					t.Fatal(err)
				}
				for _, g := range gates {
					if !g.Open {
						t.Errorf("shut after trust: %+v", g)
					}
				}
				after := readTestFile(t, cfg)
				if content != "" && !strings.HasPrefix(after, strings.SplitN(content, "[projects.\""+o.Root, 2)[0]) {
					t.Errorf("the file's start changed:\n%s", after)
				}
				// Idempotent.
				if _, err := wirings.Trust(o); err != nil || readTestFile(t, cfg) != after {
					t.Errorf("second trust changed the file (%v)", err)
				}
				ch, err := wirings.Uninstall(o)
				if err != nil || !ch.Untrusted {
					t.Fatalf("uninstall: %+v, %v", ch, err)
				}
				if name == "none" {
					if _, err := os.Stat(cfg); !os.IsNotExist(err) {
						t.Errorf("config.toml made by trust is left: %s", readTestFile(t, cfg))
					}
				} else if got := readTestFile(t, cfg); got != content {
					t.Errorf("after uninstall:\n got  %q\n want %q", got, content)
				}
				if _, err := os.Stat(cfg + install.LedgerSuffix); !os.IsNotExist(err) {
					t.Errorf("ledger left behind: %v", err)
				}
			})
		}
	}
}

// TestCodexTrustKeepsUserChanges: uninstall takes back only what trust
// set and still stands; a value the user changed since stays.
func TestCodexTrustKeepsUserChanges(t *testing.T) {
	o := options(t, "codex", install.Project)
	cfg := filepath.Join(o.Home, ".codex", "config.toml")
	if _, err := wirings.Install(o); err != nil {
		t.Fatal(err)
	}
	if _, err := wirings.Trust(o); err != nil {
		t.Fatal(err)
	}
	data := readTestFile(t, cfg)
	data = strings.Replace(data, `trust_level = "trusted"`, `trust_level = "untrusted"`, 1) + "model = \"mine\"\n"
	data = "# added by the user\n" + data
	writeTestFile(t, cfg, data)
	if _, err := wirings.Uninstall(o); err != nil {
		t.Fatal(err)
	}
	got := readTestFile(t, cfg)
	if !strings.Contains(got, `trust_level = "untrusted"`) || !strings.Contains(got, "# added by the user") {
		t.Errorf("the user's changes went:\n%s", got)
	}
	if strings.Contains(got, "trusted_hash") {
		t.Errorf("the reviews trust set are left:\n%s", got)
	}
}

// TestCodexTrustRefusesInline: a project table written inline cannot be
// edited line by line; trust says what to set instead of breaking it.
func TestCodexTrustRefusesInline(t *testing.T) {
	o := options(t, "codex", install.Project)
	cfg := filepath.Join(o.Home, ".codex", "config.toml")
	content := "projects = { " + install.TOMLString(o.Root) + " = { trust_level = \"untrusted\" } }\n"
	writeTestFile(t, cfg, content)
	if _, err := wirings.Install(o); err != nil {
		t.Fatal(err)
	}
	_, err := wirings.Trust(o)
	if err == nil || !strings.Contains(err.Error(), "trust_level = \"trusted\"") {
		t.Fatalf("trust: %v, want a refusal naming the setting", err)
	}
	if got := readTestFile(t, cfg); got != content {
		t.Errorf("the file changed: %q", got)
	}
}

// TestCodexHookHash pins the hash against what Codex 0.169 itself
// reported (hooks/list's currentHash) for a hook install wrote.
func TestCodexHookHash(t *testing.T) {
	got := codex.HookHash("pre_tool_use", nil, "/tmp/study/bin/agenthooks run --from codex", 600)
	if want := "sha256:c138a1310443a66cafb56807bf79047721ab20d32941f3f8d5163cc7d3208d0e"; got != want {
		t.Errorf("hash %s, want %s", got, want)
	}
	if got := codex.HookHash("stop", nil, "/tmp/study/bin/agenthooks run --from codex", 600); got !=
		"sha256:a7c5a62acf528158e0172bcd00e325ca5e954c6a28aeb6a74f85ebd471196f57" {
		t.Errorf("stop hash %s", got)
	}
	// SessionEnd's timeout as Codex runs it (1 s unless set, 3 s at
	// most): Codex 0.169 reported these for "x".
	for set, want := range map[any]string{nil: "sha256:f3041eae", 2.0: "sha256:3ced4c28", 600.0: "sha256:"} {
		if got := codex.HookHash("session_end", nil, "x", codex.HookTimeout("session_end", set)); !strings.HasPrefix(got, want) {
			t.Errorf("SessionEnd with timeout %v: %s, want %s…", set, got, want)
		}
	}
	if got := codex.HookHash("stop", nil, "x", codex.HookTimeout("stop", nil)); !strings.HasPrefix(got, "sha256:6f144774") {
		t.Errorf("Stop without a timeout: %s", got)
	}
	m := "Bash"
	if codex.HookHash("stop", &m, "x", 600) == codex.HookHash("stop", nil, "x", 600) {
		t.Error("the matcher does not change the hash")
	}
}

func TestCodexHookKeys(t *testing.T) {
	o := options(t, "codex", install.Project)
	path, _ := wirings.Path(o)
	// The user's own groups come first: agenthooks' group is the second
	// of PreToolUse.
	writeTestFile(t, path, `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh"}]}]}}`)
	if _, err := wirings.Install(o); err != nil {
		t.Fatal(err)
	}
	hs, err := codex.Hooks(path, []byte(readTestFile(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range hs {
		if h.Event == "PreToolUse" {
			found = true
			if h.Key != path+":pre_tool_use:1:0" {
				t.Errorf("key %s", h.Key)
			}
		}
		if h.Event == "SessionEnd" && h.Key != path+":session_end:0:0" {
			t.Errorf("key %s", h.Key)
		}
	}
	if !found || len(hs) != len(lookupMust("codex").Events) {
		t.Errorf("hooks %+v", hs)
	}
}

var copilotConfigs = map[string]string{
	"none":     "",
	"empty":    "{}\n",
	"other":    "{\n  \"banner\": \"never\",\n  \"model\": \"gpt-5\"\n}\n",
	"folders":  "{\n  \"trustedFolders\": [\n    \"/elsewhere\"\n  ]\n}\n",
	"inline":   "{\"trustedFolders\": [\"/elsewhere\"], \"x\": 1}",
	"comments": "{\n  // mine\n  \"banner\": \"never\",\n}\n",
}

func TestCopilotTrustRoundTrip(t *testing.T) {
	for name, content := range copilotConfigs {
		t.Run(name, func(t *testing.T) {
			o := options(t, "copilot", install.Project)
			cfg := filepath.Join(o.Home, ".copilot", "config.json")
			if content != "" {
				writeTestFile(t, cfg, content)
			}
			if _, err := wirings.Install(o); err != nil {
				t.Fatal(err)
			}
			gates, err := wirings.Gates(o)
			if err != nil || len(gates) != 1 || gates[0].Open {
				t.Fatalf("gates before trust: %+v, %v", gates, err)
			}
			gates, err = wirings.Trust(o)
			if err != nil || len(gates) != 1 || !gates[0].Open {
				t.Fatalf("gates after trust: %+v, %v", gates, err)
			}
			folders, err := copilot.Trusted([]byte(readTestFile(t, cfg)))
			if err != nil || folders[len(folders)-1] != o.Root {
				t.Errorf("trustedFolders %q, %v", folders, err)
			}
			if _, err := wirings.Uninstall(o); err != nil {
				t.Fatal(err)
			}
			if content == "" {
				if _, err := os.Stat(cfg); !os.IsNotExist(err) {
					t.Errorf("config.json made by trust is left: %s", readTestFile(t, cfg))
				}
			} else if got := readTestFile(t, cfg); got != content {
				t.Errorf("after uninstall:\n got  %q\n want %q", got, content)
			}
		})
	}
	// User scope: Copilot loads the user's hooks anywhere.
	if gates, err := wirings.Gates(options(t, "copilot", install.User)); err != nil || len(gates) != 0 {
		t.Errorf("user scope gates %+v, %v", gates, err)
	}
}

// TestTrustBothSpellings: a workspace reached through a link is trusted
// as given and as its real path (the agents see the real one from their
// working directory), and uninstall takes both back.
func TestTrustBothSpellings(t *testing.T) {
	for _, agent := range []string{"codex", "copilot"} {
		t.Run(agent, func(t *testing.T) {
			o := options(t, agent, install.Project)
			link := filepath.Join(filepath.Dir(o.Root), "link")
			if err := os.Symlink(o.Root, link); err != nil {
				t.Fatal(err)
			}
			real, err := filepath.EvalSymlinks(o.Root)
			if err != nil {
				t.Fatal(err)
			}
			o.Root = link
			if _, err := wirings.Install(o); err != nil {
				t.Fatal(err)
			}
			gates, err := wirings.Trust(o)
			if err != nil {
				t.Fatal(err)
			}
			var linked, reals int
			for _, g := range gates {
				if !g.Open {
					t.Errorf("shut: %+v", g)
				}
				if strings.Contains(g.What, link) {
					linked++
				}
				if strings.Contains(g.What, real) {
					reals++
				}
			}
			if linked == 0 || linked != reals {
				t.Errorf("%d gates for the link, %d for the real path: %+v", linked, reals, gates)
			}
			if _, err := wirings.Uninstall(o); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{".codex/config.toml", ".copilot/config.json"} {
				if _, err := os.Stat(filepath.Join(o.Home, f)); !os.IsNotExist(err) {
					t.Errorf("%s left behind: %v", f, err)
				}
			}
		})
	}
}

// TestInstallWithUnreadableGates: the hooks are installed even when the
// agent's own settings cannot be read; the note says so.
func TestInstallWithUnreadableGates(t *testing.T) {
	o := options(t, "copilot", install.Project)
	writeTestFile(t, filepath.Join(o.Home, ".copilot", "config.json"), "{not json")
	ch, err := wirings.Install(o)
	if err != nil || ch.Action != "created" || !strings.Contains(ch.Note, "could not be read") {
		t.Fatalf("install: %+v, %v", ch, err)
	}
	if _, err := wirings.Trust(o); err == nil {
		t.Error("trust wrote into a file it cannot read")
	}
}

var geminiConfigs = map[string]string{
	"none":     "",
	"empty":    "{}\n",
	"others":   "{\n  \"/elsewhere\": \"TRUST_FOLDER\"\n}\n",
	"comments": "{\n  // mine\n  \"/elsewhere\": \"DO_NOT_TRUST\",\n}\n",
}

func TestGeminiTrustRoundTrip(t *testing.T) {
	for name, content := range geminiConfigs {
		t.Run(name, func(t *testing.T) {
			o := options(t, "gemini", install.Project)
			cfg := filepath.Join(o.Home, ".gemini", "trustedFolders.json")
			if content != "" {
				writeTestFile(t, cfg, content)
			}
			if _, err := wirings.Install(o); err != nil {
				t.Fatal(err)
			}
			gates, err := wirings.Gates(o)
			if err != nil || len(gates) != 1 || gates[0].Open {
				t.Fatalf("gates before trust: %+v, %v", gates, err)
			}
			gates, err = wirings.Trust(o)
			if err != nil || len(gates) != 1 || !gates[0].Open {
				t.Fatalf("gates after trust: %+v, %v", gates, err)
			}
			if _, err := wirings.Uninstall(o); err != nil {
				t.Fatal(err)
			}
			if content == "" {
				if _, err := os.Stat(cfg); !os.IsNotExist(err) {
					t.Errorf("trustedFolders.json made by trust is left: %s", readTestFile(t, cfg))
				}
			} else if got := readTestFile(t, cfg); got != content {
				t.Errorf("after uninstall:\n got  %q\n want %q", got, content)
			}
		})
	}
}

func TestGeminiTrustRule(t *testing.T) {
	for _, tc := range []struct {
		rules  map[string]string
		folder string
		want   bool
	}{
		{map[string]string{"/a": "TRUST_FOLDER"}, "/a/b", true},
		{map[string]string{"/a/b/c": "TRUST_PARENT"}, "/a/b/d", true},
		{map[string]string{"/a": "TRUST_FOLDER", "/a/b": "DO_NOT_TRUST"}, "/a/b/c", false},
		{map[string]string{"/a": "DO_NOT_TRUST", "/a/b": "TRUST_FOLDER"}, "/a/b", true},
		{map[string]string{"/ab": "TRUST_FOLDER"}, "/a", false},
		{map[string]string{"/a": "TRUST_FOLDER"}, "/ab", false},
		{nil, "/a", false},
	} {
		if got := gemini.Trusted(tc.rules, tc.folder); got != tc.want {
			t.Errorf("%v, %s: %v, want %v", tc.rules, tc.folder, got, tc.want)
		}
	}
	// A folder the user told Gemini CLI not to trust is not overridden.
	o := options(t, "gemini", install.Project)
	writeTestFile(t, filepath.Join(o.Home, ".gemini", "trustedFolders.json"), `{`+string(install.MustJSON(o.Root))+`: "DO_NOT_TRUST"}`)
	if _, err := wirings.Install(o); err != nil {
		t.Fatal(err)
	}
	if _, err := wirings.Trust(o); err == nil || !strings.Contains(err.Error(), "told not to trust") {
		t.Errorf("trust over DO_NOT_TRUST: %v", err)
	}
}

func lookupMust(name string) *install.Agent {
	a, _ := wirings.Lookup(name)
	return a
}
