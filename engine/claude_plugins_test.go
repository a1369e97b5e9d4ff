package engine_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent/claude"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
)

// installPlugin installs a Claude Code plugin as id in the fixture's
// ~/.claude (its registry, installed_plugins.json), with files (path
// under the plugin's folder → content), and returns its folder.
func (f *fixture) installPlugin(id string, files map[string]string) string {
	f.t.Helper()
	userDir := filepath.Join(f.home, ".claude")
	root := filepath.Join(userDir, "plugins", "cache", strings.ReplaceAll(id, "@", "-"))
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
	reg := claude.InstalledPluginsFile(userDir)
	doc := struct {
		Plugins map[string]any `json:"plugins"`
	}{Plugins: map[string]any{}}
	if data, err := os.ReadFile(reg); err == nil {
		if err := json.Unmarshal(data, &doc); err != nil {
			f.t.Fatal(err)
		}
	}
	doc.Plugins[id] = []map[string]string{{"installPath": root}}
	data, err := json.Marshal(doc)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(reg), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(reg, data, 0o644); err != nil {
		f.t.Fatal(err)
	}
	return root
}

// recorder is a hook command that appends its name, the plugin root it
// was given and the variables named to the file log, one line per run.
func (f *fixture) recorder(log, name string, vars ...string) string {
	line := name + " root=${CLAUDE_PLUGIN_ROOT:-none}"
	for _, v := range vars {
		line += " " + v + "=${" + v + ":-unset}"
	}
	return f.script(name+".sh", `cat >/dev/null; echo "`+line+`" >> `+log)
}

// readLines reads the lines a recorder wrote, sorted (hooks run at once).
func readLines(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	slices.Sort(lines)
	return lines
}

// bashGroup is a PreToolUse matcher group for Bash running command.
func bashGroup(command string) string {
	return `{"matcher": "Bash", "hooks": [{"type": "command", "command": "` + command + `"}]}`
}

// TestClaudePluginManifestHooks: a plugin's hooks are those of its
// hooks/hooks.json and of what its manifest's "hooks" names, a path, a
// list of paths or the hooks inline, as Claude Code loads them; a file
// named twice runs once; a manifest that names a path outside the
// plugin's folder keeps the whole plugin from loading, with an error.
func TestClaudePluginManifestHooks(t *testing.T) {
	f := newFixture(t)
	log := filepath.Join(f.dir, "ran.log")
	def := f.recorder(log, "default")
	extra := f.recorder(log, "extra")
	listed := f.recorder(log, "listed")
	inline := f.recorder(log, "inline")
	evil := f.recorder(log, "outside")
	pathRoot := f.installPlugin("paths@market", map[string]string{
		"hooks/hooks.json":           `{"hooks": {"PreToolUse": [` + bashGroup(def) + `]}}`,
		"config/extra.json":          `{"hooks": {"PreToolUse": [` + bashGroup(extra) + `]}}`,
		"config/listed.json":         `{"hooks": {"PreToolUse": [` + bashGroup(listed) + `]}}`,
		".claude-plugin/plugin.json": `{"name": "paths", "hooks": ["./config/extra.json", "./config/listed.json", "./hooks/hooks.json"]}`,
	})
	inlineRoot := f.installPlugin("inline@market", map[string]string{
		".claude-plugin/plugin.json": `{"name": "inline", "version": "1.0.0", "hooks": {"PreToolUse": [` + bashGroup(inline) + `]}}`,
	})
	singleRoot := f.installPlugin("single@market", map[string]string{
		".claude-plugin/plugin.json": `{"name": "single", "hooks": "./more.json"}`,
		"more.json":                  `{"hooks": {"PreToolUse": [` + bashGroup(extra+" single") + `]}}`,
	})
	f.installPlugin("escape@market", map[string]string{
		"hooks/hooks.json":           `{"hooks": {"PreToolUse": [` + bashGroup(evil) + `]}}`,
		".claude-plugin/plugin.json": `{"name": "escape", "hooks": "../../../../outside.json"}`,
	})
	f.writeClaudeUser(`{"enabledPlugins": {"paths@market": true, "inline@market": true, "single@market": true, "escape@market": true}}`)
	e, err := engine.Load(f.options())
	if err != nil {
		t.Fatal(err)
	}
	var escape []string
	for _, p := range e.Problems() {
		if p.Severity == config.Error {
			escape = append(escape, p.Error())
		}
	}
	if len(escape) != 1 || !strings.Contains(escape[0], `plugin "escape@market"`) || !strings.Contains(escape[0], "outside the plugin's folder") {
		t.Fatalf("problems %q, want one error naming the escaping plugin", escape)
	}

	d := run(t, e, event.PreToolUse, `{"tool_name":"Shell","tool_input":{"command":"ls"}}`)
	want := []string{
		"default root=" + pathRoot,
		"extra root=" + singleRoot,
		"extra root=" + pathRoot,
		"inline root=" + inlineRoot,
		"listed root=" + pathRoot,
	}
	slices.Sort(want)
	if got := readLines(t, log); !slices.Equal(got, want) {
		t.Errorf("hooks ran:\n%s\nwant:\n%s\n(said %q)", strings.Join(got, "\n"), strings.Join(want, "\n"), said(d))
	}
}

// TestClaudeSettingsEnvReachesPluginHooks: a Claude Code settings file's
// env block reaches the hooks of the plugins it enables and of Claude
// Code's lower sources, as Claude Code applies it to every process it
// starts, but never a higher source's hooks nor Cursor's; a loader
// variable in it is refused as a sessionStart env of its rank is; an
// untrusted project's env reaches nothing.
func TestClaudeSettingsEnvReachesPluginHooks(t *testing.T) {
	f := newFixture(t)
	log := filepath.Join(f.dir, "ran.log")
	vars := []string{"FROM_PROJECT", "FROM_USER", "SHARED", "LD_PRELOAD"}
	plugin := f.recorder(log, "plugin", vars...)
	project := f.recorder(log, "project", vars...)
	user := f.recorder(log, "user", vars...)
	cursor := f.recorder(log, "cursor", vars...)
	f.installPlugin("guard@market", map[string]string{
		"hooks/hooks.json": `{"hooks": {"PreToolUse": [` + bashGroup(plugin) + `]}}`,
	})
	f.writeClaude(`{"env": {"FROM_PROJECT": "p", "SHARED": "project", "LD_PRELOAD": "/nonexistent/evil.so"},
		"enabledPlugins": {"guard@market": true},
		"hooks": {"PreToolUse": [` + bashGroup(project) + `]}}`)
	f.writeClaudeUser(`{"env": {"FROM_USER": "u", "SHARED": "user"}, "hooks": {"PreToolUse": [` + bashGroup(user) + `]}}`)
	f.write(config.User, map[event.Step][]hk{event.PreToolUse: {{"command": cursor}}})

	run(t, f.engine(), event.PreToolUse, `{"tool_name":"Shell","tool_input":{"command":"ls"}}`)
	want := []string{
		"cursor root=none FROM_PROJECT=unset FROM_USER=unset SHARED=unset LD_PRELOAD=unset",
		"plugin root=" + filepath.Join(f.home, ".claude", "plugins", "cache", "guard-market") + " FROM_PROJECT=p FROM_USER=unset SHARED=project LD_PRELOAD=unset",
		"project root=none FROM_PROJECT=p FROM_USER=unset SHARED=project LD_PRELOAD=unset",
		"user root=none FROM_PROJECT=p FROM_USER=u SHARED=project LD_PRELOAD=unset",
	}
	if got := readLines(t, log); !slices.Equal(got, want) {
		t.Errorf("hooks saw:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The project's settings file no longer trusted: its hooks and its
	// plugin's stop, and its env reaches the user's hooks no more.
	if err := os.Remove(log); err != nil {
		t.Fatal(err)
	}
	delete(f.trusted, claude.ProjectFile(f.root))
	e, err := engine.Load(f.options())
	if err != nil {
		t.Fatal(err)
	}
	run(t, e, event.PreToolUse, `{"tool_name":"Shell","tool_input":{"command":"ls"}}`)
	want = []string{
		"cursor root=none FROM_PROJECT=unset FROM_USER=unset SHARED=unset LD_PRELOAD=unset",
		"user root=none FROM_PROJECT=unset FROM_USER=u SHARED=user LD_PRELOAD=unset",
	}
	if got := readLines(t, log); !slices.Equal(got, want) {
		t.Errorf("untrusted project, hooks saw:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
