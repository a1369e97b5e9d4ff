package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/agenthooks/agenthooks"

// layers lists the module's library packages, lowest layer first. A package
// may import packages of its own layer or of a lower one, never of a higher
// one. "x/..." stands for x and every package under it. It must read as
// the block in docs/architecture.md (section Layers) read bottom-up;
// TestDocMatches holds the two together.
var layers = [][]string{
	{"internal/jsonscan", "internal/proc", "internal/filelock", "internal/faultinject", "internal/suggest", "internal/atomicfile", "internal/shellquote", "internal/sqlitedb", "internal/wire", "internal/lazyre", "internal/printable", "internal/settings"},
	{"internal/jsonplain", "internal/client"},
	{"policy/shellscan", "policy/gitpush"},
	{"event", "match", "audit", "llm", "hookshape"},
	{"config", "trust", "sandbox"},
	{"session"},
	{"runner"},
	{"engine"},
	{"policy", "state", "team/..."},
	{"agent", "export", "install"},
	{"agent/..."},
	{"agent/agents"},
	{"host"},
	{"internal/resident"},
	{"internal/cli"},
	{"cmd/agenthooks", "cmd/agenthooks-engine"},
}

// leavesBeside stand beside the layers and import no package of the module,
// so any layer may import them.
var leavesBeside = []string{"examples", "deploy"}

// testOnly are test helpers and end-to-end tests: they may import anything,
// and no library package may import them.
var testOnly = []string{
	"internal/needs", "internal/fakemodel", "agent/agenttest", "internal/layers", "llm/llmtest",
	"team/teamsync/faketeam", "team/internal/pgtest", "policy/internal/gittest", "e2e", "team/e2e",
}

// kind says where a package (path relative to the module) stands.
type kind int

const (
	unknown kind = iota
	layered
	leafBeside
	testHelper
)

// place returns where pkg stands and, for a layered one, its layer's index.
// Exact names win over "x/..." patterns, so a test helper under team/ is
// not taken for part of the team layer.
func place(pkg string) (kind, int) {
	if slices.Contains(testOnly, pkg) {
		return testHelper, 0
	}
	if slices.Contains(leavesBeside, pkg) {
		return leafBeside, 0
	}
	for i, l := range layers {
		if slices.Contains(l, pkg) {
			return layered, i
		}
	}
	for i, l := range layers {
		for _, p := range l {
			if base, ok := strings.CutSuffix(p, "/..."); ok && (pkg == base || strings.HasPrefix(pkg, base+"/")) {
				return layered, i
			}
		}
	}
	return unknown, 0
}

// check returns one message per breach of the layering in graph, which maps
// each package (relative to the module) to the module packages its non-test
// files import.
func check(graph map[string][]string) []string {
	var bad []string
	for _, pkg := range slices.Sorted(maps.Keys(graph)) {
		k, layer := place(pkg)
		switch k {
		case unknown:
			bad = append(bad, fmt.Sprintf("package %s is in no layer: add it to internal/layers and to docs/architecture.md (section Layers)", pkg))
			continue
		case testHelper:
			continue
		}
		for _, imp := range graph[pkg] {
			ik, ilayer := place(imp)
			switch {
			case k == leafBeside:
				bad = append(bad, fmt.Sprintf("%s imports %s: %s stands beside the layers and must import no package of the module", pkg, imp, pkg))
			case ik == testHelper:
				bad = append(bad, fmt.Sprintf("%s imports %s, a test helper: library code must not", pkg, imp))
			case ik == layered && ilayer > layer:
				bad = append(bad, fmt.Sprintf("%s imports %s, which is in a higher layer (%s above %s)",
					pkg, imp, strings.Join(layers[ilayer], ", "), strings.Join(layers[layer], ", ")))
			}
		}
	}
	return bad
}

// importGraph runs go list for goos and returns the module's packages, each
// with the module packages its non-test files import on that system.
func importGraph(t *testing.T, root, goos string) map[string][]string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the layering check needs the go command: %v", err)
	}
	cmd := exec.CommandContext(t.Context(), goBin, "list", "-e", "-json=ImportPath,Imports,Error", "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list (GOOS=%s): %v\n%s", goos, err, stderr.String())
	}
	graph := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
			Error      *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list (GOOS=%s): read its output: %v", goos, err)
		}
		if p.Error != nil && !strings.Contains(p.Error.Err, "build constraints exclude all Go files") {
			t.Fatalf("go list (GOOS=%s): %s: %s", goos, p.ImportPath, p.Error.Err)
		}
		rel, ok := relative(p.ImportPath)
		if !ok {
			continue
		}
		var imps []string
		for _, imp := range p.Imports {
			if r, ok := relative(imp); ok {
				imps = append(imps, r)
			}
		}
		graph[rel] = imps
	}
	if len(graph) == 0 {
		t.Fatalf("go list (GOOS=%s) listed no package of %s", goos, module)
	}
	return graph
}

// relative is path relative to the module, and whether it is in it.
func relative(path string) (string, bool) {
	if path == module {
		return ".", true
	}
	return strings.CutPrefix(path, module+"/")
}

// moduleRoot is the directory of the module's go.mod: two levels up.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	return root
}

// TestLayers checks the real import graph, as each supported system builds
// it (per-OS files import differently), against the layers.
func TestLayers(t *testing.T) {
	root := moduleRoot(t)
	for _, goos := range []string{"linux", "darwin", "windows"} {
		t.Run(goos, func(t *testing.T) {
			graph := importGraph(t, root, goos)
			for _, want := range []string{"event", "engine", "session", "cmd/agenthooks"} {
				if _, ok := graph[want]; !ok {
					t.Fatalf("go list did not list %s: the graph is not the module's", want)
				}
			}
			for _, msg := range check(graph) {
				t.Error(msg)
			}
		})
	}
}

// TestCheckFindsBreaches shows that check names the offending import of
// each kind of breach, so TestLayers passing means something.
func TestCheckFindsBreaches(t *testing.T) {
	graph := map[string][]string{
		"config":                 {"event", "engine"},              // upward
		"engine":                 {"session", "runner"},            // fine
		"team/teamsync":          {"config", "team/teamv1"},        // fine: same layer and below
		"state":                  {"team/teamsync/faketeam"},       // a test helper
		"examples":               {"event"},                        // a leaf beside that is no leaf
		"newpkg":                 nil,                              // in no layer
		"team/teamsync/faketeam": {"host", "internal/cli"},         // helpers may
		"internal/proc":          {"internal/jsonscan"},            // same layer
		"event":                  {"internal/suggest", "examples"}, // leaves beside are below all
	}
	got := check(graph)
	want := []string{
		"config imports engine, which is in a higher layer (engine above config, trust, sandbox)",
		"examples imports event: examples stands beside the layers and must import no package of the module",
		"package newpkg is in no layer: add it to internal/layers and to docs/architecture.md (section Layers)",
		"state imports team/teamsync/faketeam, a test helper: library code must not",
	}
	if !slices.Equal(got, want) {
		t.Errorf("check found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDocMatches holds docs/architecture.md's Layers block to the table:
// one line per layer, top layer first, the packages before the first run of
// two spaces; an indented line continues the one above. Every package
// beside the layers must be named in the section too.
func TestDocMatches(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Layers\n")
	if !ok {
		t.Fatal("docs/architecture.md has no section Layers")
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	_, block, ok := strings.Cut(section, "```\n")
	if ok {
		block, _, ok = strings.Cut(block, "```")
	}
	if !ok {
		t.Fatal("the Layers section of docs/architecture.md has no code block")
	}
	gap := regexp.MustCompile(`\s{2,}`)
	var doc [][]string
	for line := range strings.SplitSeq(block, "\n") {
		if strings.TrimSpace(line) == "" || line[0] == ' ' || line[0] == '\t' {
			continue
		}
		names := gap.Split(strings.TrimSpace(line), 2)[0]
		doc = append(doc, strings.Split(names, ", "))
	}
	slices.Reverse(doc)
	if !slices.EqualFunc(doc, layers, slices.Equal[[]string]) {
		t.Errorf("docs/architecture.md's layers (bottom up) %q differ from internal/layers' %q", doc, layers)
	}
	for _, p := range append(slices.Clone(leavesBeside), testOnly...) {
		if !strings.Contains(section, "`"+p+"`") {
			t.Errorf("docs/architecture.md's Layers section does not name `%s`", p)
		}
	}
}
