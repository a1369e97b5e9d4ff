package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/trust"
)

// pinnedWorkspace is a workspace whose hooks run scripts, and a real
// trust store in a temporary config dir.
type pinnedWorkspace struct {
	t     *testing.T
	root  string
	store *trust.Store
}

func newPinnedWorkspace(t *testing.T, hooksFile string, files map[string]string) *pinnedWorkspace {
	t.Helper()
	w := &pinnedWorkspace{t: t, root: filepath.Join(t.TempDir(), "ws")}
	writeFile(t, ProjectFile(w.root), hooksFile)
	for rel, content := range files {
		w.write(rel, content)
	}
	s, err := trust.Open(filepath.Join(t.TempDir(), "config"))
	if err != nil {
		t.Fatal(err)
	}
	w.store = s
	return w
}

func (w *pinnedWorkspace) path(rel string) string {
	return filepath.Join(w.root, filepath.FromSlash(rel))
}

func (w *pinnedWorkspace) write(rel, content string) { writeFile(w.t, w.path(rel), content) }

// trust pins the workspace as `agenthooks trust` does.
func (w *pinnedWorkspace) trust() {
	w.t.Helper()
	pins, err := testSources.ProjectPins(w.root)
	if err != nil {
		w.t.Fatal(err)
	}
	if err := w.store.TrustSums(w.root, pins); err != nil {
		w.t.Fatal(err)
	}
}

func (w *pinnedWorkspace) load() *Set {
	return Load(Locations{Settings: testSettings, EnterpriseFile: filepath.Join(w.root, "no-enterprise.json"), WorkspaceRoots: []string{w.root}}, w.store)
}

// expect checks which hooks run and that the problems are exactly those
// holding each of want (in order), all errors.
func (w *pinnedWorkspace) expect(step string, set *Set, running []string, want ...[]string) {
	w.t.Helper()
	if got := commands(set.Hooks); !slices.Equal(got, running) {
		w.t.Errorf("%s: running %q, want %q", step, got, running)
	}
	if len(set.Problems) != len(want) {
		w.t.Fatalf("%s: problems %q, want %d", step, problemStrings(set.Problems), len(want))
	}
	for i, p := range set.Problems {
		if p.Severity != Error {
			w.t.Errorf("%s: %v is a warning, want an error", step, p)
		}
		for _, s := range want[i] {
			if !strings.Contains(p.Error(), s) {
				w.t.Errorf("%s: problem %q\nwant it to contain %q", step, p.Error(), s)
			}
		}
	}
}

// TestLoadStopsHooksWhoseFileChanged walks a workspace through edits to
// the files its hooks run: each edit stops exactly the hooks that run the
// file, with an error naming it, until the workspace is trusted again.
func TestLoadStopsHooksWhoseFileChanged(t *testing.T) {
	a, b, pol := ".cursor/hooks/a.sh", "./hooks/b.sh", "agenthooks policy .cursor/policies/p.yaml"
	w := newPinnedWorkspace(t, `{"version":1,"hooks":{
		"beforeShellExecution":[{"command":".cursor/hooks/a.sh"},{"command":"./hooks/b.sh"},{"command":"agenthooks policy .cursor/policies/p.yaml"}],
		"stop":[{"command":".cursor/hooks/a.sh stop"},{"command":"echo done"}]}}`,
		map[string]string{".cursor/hooks/a.sh": "echo a", "hooks/b.sh": "echo b", ".cursor/policies/p.yaml": "rules: []"})
	all := []string{a, b, pol, a + " stop", "echo done"}
	cmd := `run "agenthooks trust ` + w.root + `"`

	w.trust()
	w.expect("trusted", w.load(), all)

	w.write(".cursor/hooks/a.sh", "echo A")
	w.expect("a.sh edited", w.load(), []string{b, pol, "echo done"}, []string{
		ProjectFile(w.root) + ": 2 project hook(s) skipped (beforeShellExecution[0], stop[0]): ",
		w.path(".cursor/hooks/a.sh") + " changed since workspace " + w.root + " was trusted", cmd,
	})

	w.trust()
	w.expect("trusted again", w.load(), all)

	w.write(".cursor/policies/p.yaml", "rules: [] # more")
	if err := os.Remove(w.path("hooks/b.sh")); err != nil {
		t.Fatal(err)
	}
	w.write("stop", "a new file where a word of a command points")
	w.expect("policy edited, b.sh removed, stop added", w.load(), []string{a, "echo done"},
		[]string{"(beforeShellExecution[1]): " + w.path("hooks/b.sh") + " was removed since workspace", cmd},
		[]string{"(beforeShellExecution[2]): " + w.path(".cursor/policies/p.yaml") + " changed since workspace", cmd},
		[]string{"(stop[0]): " + w.path("stop") + " was added since workspace", cmd},
	)

	w.trust()
	w.expect("trusted again", w.load(), all)
}

// TestLoadOldPinStopsScripts: a workspace trusted when only hooks files
// were pinned keeps its hooks file trusted, but the hooks that run a
// workspace file stop until it is trusted again; the others run.
func TestLoadOldPinStopsScripts(t *testing.T) {
	hooks := `{"version":1,"hooks":{"stop":[{"command":".cursor/hooks/a.sh"},{"command":"echo done"}]}}`
	w := newPinnedWorkspace(t, hooks, map[string]string{".cursor/hooks/a.sh": "echo a"})
	// What an older agenthooks wrote: the hooks file's hash, nothing more.
	if err := w.store.Trust(w.root, map[string][]byte{ProjectFile(w.root): []byte(hooks)}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(w.store.Path())
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	for _, ws := range st["workspaces"].(map[string]any) {
		delete(ws.(map[string]any), "run_files")
	}
	if data, err = json.Marshal(st); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.store.Path(), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := w.store.Reload(); err != nil {
		t.Fatal(err)
	}
	w.expect("old pin", w.load(), []string{"echo done"}, []string{
		w.path(".cursor/hooks/a.sh") + " is run by a hook but not pinned: workspace " + w.root + " was trusted when trust covered only the hooks files",
	})
	w.trust()
	w.expect("trusted again", w.load(), []string{".cursor/hooks/a.sh", "echo done"})
}

// TestLoadChangedHooksFileSeverity: an edited hooks file in a trusted
// workspace is an error (validate fails); in a workspace never trusted,
// the skipped hooks are only a warning.
func TestLoadChangedHooksFileSeverity(t *testing.T) {
	w := newPinnedWorkspace(t, hooksJSON("echo one"), nil)
	set := w.load()
	if len(set.Problems) != 1 || set.Problems[0].Severity != Warning || !strings.Contains(set.Problems[0].Message, "is not trusted") {
		t.Errorf("never trusted: %q", problemStrings(set.Problems))
	}
	w.trust()
	w.write(".cursor/hooks.json", hooksJSON("echo two"))
	w.expect("edited", w.load(), nil, []string{ProjectFile(w.root) + " changed since it was trusted"})
}

// TestLoadClaudeSettingsScripts: the project's Claude Code settings are
// pinned with the scripts their hooks run through $CLAUDE_PROJECT_DIR.
func TestLoadClaudeSettingsScripts(t *testing.T) {
	w := newPinnedWorkspace(t, hooksJSON("echo cursor"), map[string]string{
		".claude/settings.json":  `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/g.sh"}]}]}}`,
		".claude/hooks/g.sh":     "echo g",
		".claude/hooks/other.sh": "not named by any hook",
	})
	w.trust()
	running := []string{"echo cursor", `"$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh`}
	w.expect("trusted", w.load(), running)
	w.write(".claude/hooks/other.sh", "edited, but nothing runs it")
	w.expect("unnamed file edited", w.load(), running)
	w.write(".claude/hooks/g.sh", "echo G")
	w.expect("g.sh edited", w.load(), []string{"echo cursor"}, []string{
		ClaudeProjectFile(w.root) + ": 1 project hook(s) skipped", w.path(".claude/hooks/g.sh") + " changed since",
	})
}

// TestLoadWatchesRunFiles: a long-lived host reloads when a script that a
// trusted hook runs changes.
func TestLoadWatchesRunFiles(t *testing.T) {
	w := newPinnedWorkspace(t, hooksJSON(".cursor/hooks/a.sh"), map[string]string{".cursor/hooks/a.sh": "echo a"})
	w.trust()
	if watched := w.load().Watched(); !slices.Contains(watched, w.path(".cursor/hooks/a.sh")) {
		t.Errorf("Watched() = %q, want the script", watched)
	}
}

// TestProjectPins lists what trusting pins: the hooks files and the files
// their hooks name that exist, not a file no hook names.
func TestProjectPins(t *testing.T) {
	w := newPinnedWorkspace(t, hooksJSON(".cursor/hooks/a.sh missing.txt", "cat < rules.txt > out.log"), map[string]string{
		".cursor/hooks/a.sh":          "echo a",
		"rules.txt":                   "r",
		"out.log":                     "written by the hook",
		".cursor/hooks/unnamed.sh":    "x",
		".claude/settings.local.json": `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"python3 hooks/s.py"}]}]}}`,
		"hooks/s.py":                  "print()",
	})
	pins, err := testSources.ProjectPins(w.root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for p := range pins {
		got = append(got, p)
	}
	slices.Sort(got)
	want := []string{
		ClaudeLocalFile(w.root), w.path(".cursor/hooks.json"), w.path(".cursor/hooks/a.sh"),
		w.path("hooks/s.py"), w.path("rules.txt"),
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("pinned %q\nwant %q", got, want)
	}
}

// TestProjectPinsUnreadable: trust refuses to pin what it cannot hash.
func TestProjectPinsUnreadable(t *testing.T) {
	if os.Geteuid() == 0 || filepath.Separator == '\\' {
		t.Skip("needs POSIX permissions enforced")
	}
	w := newPinnedWorkspace(t, hooksJSON("a.sh"), map[string]string{"a.sh": "echo a"})
	if err := os.Chmod(w.path("a.sh"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := testSources.ProjectPins(w.root); err == nil || !strings.Contains(err.Error(), "cannot pin "+w.path("a.sh")) {
		t.Errorf("ProjectPins = %v", err)
	}
	if err := w.store.TrustSums(w.root, nil); err != nil {
		t.Fatal(err)
	}
	w.expect("unreadable", w.load(), nil, []string{"cannot read " + w.path("a.sh") + " to check it"})
}
