package layers

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// envReaders are the packages that may read the process environment
// (os.Getenv, os.LookupEnv): the mains, the command line, the client,
// process plumbing and the one package that declares every setting.
// Everything else takes values, so that the resident engine answers each
// request with that request's own settings (docs/architecture.md,
// internal/settings).
var envReaders = []string{"cmd/...", "internal/cli", "internal/client", "internal/proc", "internal/settings"}

var envRead = regexp.MustCompile(`os\.(Getenv|LookupEnv)\(`)

// envReads returns file:line for each read of the process environment in
// the non-test Go files under root whose package may not read it.
func envReads(t *testing.T, root string) []string {
	t.Helper()
	var bad []string
	eachGoLine(t, root, func(rel, pkg string, n int, line string) {
		if !mayReadEnv(pkg) && envRead.MatchString(line) && !strings.HasPrefix(strings.TrimSpace(line), "//") {
			bad = append(bad, fmt.Sprintf("%s:%d: %s", rel, n, strings.TrimSpace(line)))
		}
	})
	return bad
}

// eachGoLine calls fn with every line of the non-test Go files under
// root (testdata and hidden folders left out): the file and its package's
// folder relative to root, the line's number and the line.
func eachGoLine(t *testing.T, root string, fn func(rel, pkg string, n int, line string)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		for i, line := range strings.Split(string(b), "\n") {
			fn(rel, pathDir(rel), i+1, line)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// pathDir is the folder of a slash-separated path, "." for none.
func pathDir(rel string) string {
	if i := strings.LastIndex(rel, "/"); i >= 0 {
		return rel[:i]
	}
	return "."
}

// mayReadEnv reports whether pkg may read the process environment: an
// envReader, or a test helper (they are no library).
func mayReadEnv(pkg string) bool {
	if slices.Contains(testOnly, pkg) {
		return true
	}
	for _, p := range envReaders {
		if base, ok := strings.CutSuffix(p, "/..."); ok && (pkg == base || strings.HasPrefix(pkg, base+"/")) || pkg == p {
			return true
		}
	}
	return false
}

// TestEnvReadOnlyAtTheEdges holds `git grep os.(Getenv|LookupEnv)(` to
// the mains, the command line, the client, process plumbing, the settings
// package and the test helpers.
func TestEnvReadOnlyAtTheEdges(t *testing.T) {
	for _, b := range envReads(t, moduleRoot(t)) {
		t.Errorf("%s: only %s (and test helpers) read the process environment; take the value from the caller (internal/settings)", b, strings.Join(envReaders, ", "))
	}
}

// TestEnvReadsFindsOne shows the scan finds a read in a library package
// and lets one in the command line through.
func TestEnvReadsFindsOne(t *testing.T) {
	root := t.TempDir()
	for path, src := range map[string]string{
		"state/dir.go":      "package state\n\nimport \"os\"\n\nvar d = os.Getenv(\"X\")\n",
		"internal/cli/a.go": "package cli\n\nimport \"os\"\n\nvar d = os.Getenv(\"X\")\n",
		"state/a_test.go":   "package state\n\nimport \"os\"\n\nvar e = os.LookupEnv\nvar f, _ = os.LookupEnv(\"X\")\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := envReads(t, root)
	if want := []string{`state/dir.go:5: var d = os.Getenv("X")`}; !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}
