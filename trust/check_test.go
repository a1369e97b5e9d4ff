package trust

import (
	"os"
	"path/filepath"
	"testing"
)

// TestResolveInAgreesWithResolve: the per-load checker keys each file as
// resolve does, whether the file, its folder or neither is a symlink, and
// whether it exists: a file keyed otherwise would read as added.
func TestResolveInAgreesWithResolve(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "sub", "f.js"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if err := os.Symlink(filepath.Join(real, "sub", "f.js"), filepath.Join(real, "sub", "l.js")); err != nil {
		t.Fatal(err)
	}
	folders := map[string]string{}
	for _, p := range []string{
		filepath.Join(link, "sub", "f.js"), filepath.Join(link, "sub", "l.js"), filepath.Join(link, "sub", "missing.js"),
		filepath.Join(link, "gone", "deeper", "x.js"), filepath.Join(real, "sub", "f.js"), "sub/f.js", "sub/l.js",
	} {
		for range 2 { // the second time from the cache
			want, got := resolve(p, link), resolveIn(p, link, folders)
			if got != want {
				t.Errorf("%s: resolveIn %+v, resolve %+v", p, got, want)
			}
		}
	}
}
