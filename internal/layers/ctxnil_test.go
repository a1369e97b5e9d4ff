package layers

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var ctxNil = regexp.MustCompile(`\bctx == nil\b`)

// TestNoNilContext holds that no function makes up for a nil
// context.Context: a caller passes one (context.Background() at the
// top), as the context package asks, and a guard would only hide the bug.
func TestNoNilContext(t *testing.T) {
	root := moduleRoot(t)
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
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if ctxNil.MatchString(line) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: %s: take the caller's context as it is", filepath.ToSlash(rel), i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
