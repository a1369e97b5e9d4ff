package gitpush

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatID checks the stat that freshness rests on against os.Stat:
// present, missing, changed in size and time, replaced by another file,
// and a path longer than the stack buffer.
func TestStatID(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "config")
	if err := os.WriteFile(f, []byte("[a]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	id, ok := statID(f)
	fi, err := os.Stat(f)
	if !ok || err != nil {
		t.Fatalf("statID(%s) = %v, os.Stat: %v", f, ok, err)
	}
	if !id.modTime().Equal(fi.ModTime()) {
		t.Errorf("modTime %v, os.Stat says %v", id.modTime(), fi.ModTime())
	}
	if again, _ := statID(f); !id.sameAs(again) {
		t.Error("an unchanged file reads as changed")
	}
	if err := os.WriteFile(f, []byte("[a]\nb = c\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if now, _ := statID(f); id.sameAs(now) {
		t.Error("a file grown reads as unchanged")
	}
	id, _ = statID(f)
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte("[a]\nb = d\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mt := id.modTime()
	if err := os.Chtimes(other, mt, mt); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, f); err != nil {
		t.Fatal(err)
	}
	if now, _ := statID(f); id.sameAs(now) {
		t.Error("a file replaced by one of the same size and time reads as unchanged")
	}
	if _, ok := statID(filepath.Join(dir, "missing")); ok {
		t.Error("a missing file stats")
	}
	if _, ok := statID(f + "\x00x"); ok {
		t.Error("a path with a NUL stats")
	}
	long := dir
	for len(long) < 600 {
		long = filepath.Join(long, strings.Repeat("d", 50))
	}
	if err := os.MkdirAll(long, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, ok := statID(long); !ok {
		t.Error("a long path does not stat")
	}
	if !dirMayExist(long) || !dirMayExist(dir) {
		t.Error("an existing folder reads as missing")
	}
	if dirMayExist(filepath.Join(dir, "missing")) || dirMayExist(filepath.Join(long, "missing")) {
		t.Error("a missing folder reads as present")
	}
}
