package teamsync

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// teamRoot is a team folder with a live set holding file "a" and a
// staged one holding "b".
func teamRoot(t *testing.T, live bool) *os.Root {
	t.Helper()
	dir := t.TempDir()
	if live {
		mkfile(t, filepath.Join(dir, liveName, "a"))
	}
	mkfile(t, filepath.Join(dir, stagePrefix+"1", "b"))
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func mkfile(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(filepath.Base(p)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(r *os.Root, name string) bool {
	_, err := r.Lstat(name)
	return err == nil
}

// TestRenameDance: the fallback swap used where folders cannot be
// exchanged atomically (Windows).
func TestRenameDance(t *testing.T) {
	r := teamRoot(t, true)
	old, err := renameDance(context.Background(), r, stagePrefix+"1")
	if err != nil {
		t.Fatal(err)
	}
	if !exists(r, filepath.Join(liveName, "b")) || !exists(r, filepath.Join(old, "a")) || exists(r, stagePrefix+"1") {
		t.Fatalf("after the dance: live has b %v, %s has a %v", exists(r, filepath.Join(liveName, "b")), old, exists(r, filepath.Join(old, "a")))
	}

	r = teamRoot(t, false)
	old, err = renameDance(context.Background(), r, stagePrefix+"1")
	if err != nil || old != "" || !exists(r, filepath.Join(liveName, "b")) {
		t.Fatalf("without a live set: old %q, err %v", old, err)
	}

	// When the staged folder cannot be moved in, the old set goes back.
	r = teamRoot(t, true)
	if _, err := renameDance(context.Background(), r, stagePrefix+"missing"); err == nil {
		t.Fatal("a missing staged folder was swapped in")
	}
	if !exists(r, filepath.Join(liveName, "a")) {
		t.Fatal("the old set was not put back")
	}
}

func TestSwapExchanges(t *testing.T) {
	r := teamRoot(t, true)
	old, err := swap(context.Background(), r, stagePrefix+"1")
	if err != nil {
		t.Fatal(err)
	}
	if !exists(r, filepath.Join(liveName, "b")) || !exists(r, filepath.Join(old, "a")) {
		t.Fatalf("after the swap: old name %q", old)
	}
	r = teamRoot(t, false)
	if old, err := swap(context.Background(), r, stagePrefix+"1"); err != nil || old != "" || !exists(r, filepath.Join(liveName, "b")) {
		t.Fatalf("without a live set: old %q, err %v", old, err)
	}
}

func TestRetryRenameGivesUp(t *testing.T) {
	busy := errors.New("in use")
	calls := 0
	start := time.Now()
	if err := retryRename(context.Background(), func() error { calls++; return busy }); err != busy || calls != renameAttempts {
		t.Fatalf("err %v after %d calls", err, calls)
	}
	if waited := time.Since(start); waited < 1500*time.Millisecond {
		t.Fatalf("gave up after %s, without waiting", waited)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls = 0
	if err := retryRename(ctx, func() error { calls++; return busy }); err != busy || calls != 1 {
		t.Fatalf("cancelled: err %v after %d calls", err, calls)
	}
	calls = 0
	if err := retryRename(context.Background(), func() error { calls++; return os.ErrNotExist }); !errors.Is(err, os.ErrNotExist) || calls != 1 {
		t.Fatalf("missing: err %v after %d calls", err, calls)
	}
}
