package layers

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// core lists the packages that run hooks and must name no agent: adding
// an agent is a folder under agent/ and a line in its registry, never an
// edit here. "x/..." stands for x and every package under it.
var core = []string{"config/...", "runner/...", "engine/...", "policy/...", "session/...", "state/...", "match/...", "event/...", "hookshape/..."}

// generic lists the packages that serve every agent through the agent's
// own parts (its Dialect, export.Target, install.Agent) and so name none
// either, though they may import the registry (host) or sit beside the
// agent core; an entry without "/..." is that package alone.
var generic = []string{"agent", "export", "install", "host"}

// agentWord is an agent's name in any case.
var agentWord = regexp.MustCompile(`(?i)claude|codex|gemini|copilot|opencode`)

// inCore reports whether pkg (relative to the module) is a core package.
func inCore(pkg string) bool {
	for _, p := range core {
		base := strings.TrimSuffix(p, "/...")
		if pkg == base || strings.HasPrefix(pkg, base+"/") {
			return true
		}
	}
	return false
}

// isAgent reports whether pkg is one of the agent packages.
func isAgent(pkg string) bool { return pkg == "agent" || strings.HasPrefix(pkg, "agent/") }

// coreAgentImports returns one message per core package that imports an
// agent package, directly or through another package of the module.
func coreAgentImports(graph map[string][]string) []string {
	var bad []string
	for _, pkg := range slices.Sorted(maps.Keys(graph)) {
		if !inCore(pkg) {
			continue
		}
		seen := map[string]bool{pkg: true}
		queue := []string{pkg}
		via := map[string]string{}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, imp := range graph[p] {
				if seen[imp] {
					continue
				}
				seen[imp], via[imp] = true, p
				if isAgent(imp) {
					path := imp
					for q := p; q != pkg; q = via[q] {
						path = q + " → " + path
					}
					bad = append(bad, fmt.Sprintf("%s imports %s (%s → %s): the core must not know any agent", pkg, imp, pkg, path))
					continue
				}
				queue = append(queue, imp)
			}
		}
	}
	return bad
}

// TestCoreImportsNoAgent: config, runner, engine and the rest of the core
// reach no agent package, by any path, on any supported system.
func TestCoreImportsNoAgent(t *testing.T) {
	root := moduleRoot(t)
	for _, goos := range []string{"linux", "darwin", "windows"} {
		t.Run(goos, func(t *testing.T) {
			graph := importGraph(t, root, goos)
			for _, msg := range coreAgentImports(graph) {
				t.Error(msg)
			}
		})
	}
}

// TestCoreAgentImportsFindsBreaches shows the rule names a direct and an
// indirect import of an agent package.
func TestCoreAgentImportsFindsBreaches(t *testing.T) {
	graph := map[string][]string{
		"config":         {"event", "agent/claude"},
		"engine":         {"config", "runner"},
		"runner":         {"event"},
		"host":           {"agent/agents", "engine"},
		"agent/agents":   {"agent/claude"},
		"agent/claude":   {"config"},
		"engine/inner":   {"internal/x"},
		"internal/x":     {"agent"},
		"event":          nil,
		"policy/compile": {"event"},
	}
	got := coreAgentImports(graph)
	want := []string{
		"config imports agent/claude (config → agent/claude): the core must not know any agent",
		"engine imports agent/claude (engine → config → agent/claude): the core must not know any agent",
		"engine/inner imports agent (engine/inner → internal/x → agent): the core must not know any agent",
	}
	if !slices.Equal(got, want) {
		t.Errorf("found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// agentNames returns where a Go file names an agent in an identifier or a
// string literal. Comments may name agents (they say why), and so may
// struct tags: the hooks.json schema's descriptions are Cursor's
// documentation of its own format.
func agentNames(fset *token.FileSet, f *ast.File) []string {
	tags := map[*ast.BasicLit]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if fl, ok := n.(*ast.Field); ok && fl.Tag != nil {
			tags[fl.Tag] = true
		}
		return true
	})
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			if agentWord.MatchString(x.Name) {
				out = append(out, fmt.Sprintf("%s: identifier %s", fset.Position(x.Pos()), x.Name))
			}
		case *ast.BasicLit:
			if x.Kind == token.STRING && !tags[x] && agentWord.MatchString(x.Value) {
				out = append(out, fmt.Sprintf("%s: string %s", fset.Position(x.Pos()), x.Value))
			}
		}
		return true
	})
	return out
}

// TestCoreNamesNoAgent: no non-test file of the core, or of the generic
// packages, names an agent in its code, so an agent cannot be
// special-cased there under another package's name.
func TestCoreNamesNoAgent(t *testing.T) {
	root := moduleRoot(t)
	files := 0
	for _, p := range append(slices.Clone(core), generic...) {
		base, recursive := strings.CutSuffix(p, "/...")
		dir := filepath.Join(root, filepath.FromSlash(base))
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" || path != dir && !recursive {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			files++
			for _, hit := range agentNames(fset, f) {
				t.Errorf("%s: the core names an agent; move it to the agent's package behind an interface", strings.TrimPrefix(hit, root+string(filepath.Separator)))
			}
			return nil
		})
		if err != nil {
			t.Fatalf("walk %s: %v", dir, err)
		}
	}
	if files < 50 {
		t.Fatalf("read only %d files of the core: the walk is not the module's", files)
	}
}

// TestAgentNamesFinds shows the scan finds identifiers and strings, in
// any case, and passes comments and struct tags.
func TestAgentNamesFinds(t *testing.T) {
	src := `package p

// Claude Code is named in a comment, which is fine.
type T struct {
	X int ` + "`desc:\"null for Claude Code hooks\"`" + `
}

var isCodex = "run --from GEMINI"

func ClaudeFile() string { return "ok" }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	got := agentNames(fset, f)
	want := []string{
		`p.go:8:5: identifier isCodex`,
		`p.go:8:15: string "run --from GEMINI"`,
		`p.go:10:6: identifier ClaudeFile`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
