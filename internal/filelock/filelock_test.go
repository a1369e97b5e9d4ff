//go:build (unix && !aix) || windows

package filelock

import (
	"os"
	"path/filepath"
	"testing"
)

func open(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	a, b := open(t, path), open(t, path)
	if err := Lock(a); err != nil {
		t.Fatal(err)
	}
	if ok, err := TryLock(b); err != nil || ok {
		t.Fatalf("TryLock while held = %v, %v; want false, nil", ok, err)
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if ok, err := TryLock(b); err != nil || !ok {
		t.Fatalf("TryLock once released = %v, %v; want true, nil", ok, err)
	}
	if err := Unlock(b); err != nil {
		t.Fatal(err)
	}
}

// Held sees a lock another open file holds, and no lock on a free or
// missing file; looking does not take the lock.
func TestHeld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	if Held(path) {
		t.Error("a missing file is held")
	}
	holder := open(t, path)
	if Held(path) {
		t.Error("a file nobody locked is held")
	}
	if ok, err := TryLock(holder); !ok || err != nil {
		t.Fatalf("TryLock: %v, %v", ok, err)
	}
	if !Held(path) {
		t.Error("a locked file is not held")
	}
	if err := Unlock(holder); err != nil {
		t.Fatal(err)
	}
	if Held(path) {
		t.Error("an unlocked file is held")
	}
	if ok, err := TryLock(holder); !ok || err != nil {
		t.Errorf("Held left the lock taken: %v, %v", ok, err)
	}
}
