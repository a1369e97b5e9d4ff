package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckRunFile walks a script through every state its pin can be in:
// as pinned, edited, gone, and a new file where a hook's word points, and
// checks the answer from the store in memory and from a fresh Open.
func TestCheckRunFile(t *testing.T) {
	dir := t.TempDir()
	root, hooks := workspace(t, "{}")
	script := filepath.Join(root, ".cursor", "hooks", "check.sh")
	other := filepath.Join(root, ".cursor", "hooks", "new.sh")
	v1, v2 := sha256.Sum256([]byte("echo 1")), sha256.Sum256([]byte("echo 2"))
	s := mustOpen(t, dir)
	if err := s.TrustSums(root, map[string][32]byte{hooks: sha256.Sum256([]byte("{}")), script: v1}); err != nil {
		t.Fatal(err)
	}
	cmd := `run "agenthooks trust ` + root + `"`
	tests := []struct {
		name    string
		file    string
		present bool
		sum     [32]byte
		ok      bool
		reason  []string
	}{
		{"as pinned", script, true, v1, true, nil},
		{"relative to root", ".cursor/hooks/check.sh", true, v1, true, nil},
		{"edited", script, true, v2, false, []string{
			script + " changed since workspace " + root + " was trusted (pinned sha256 " + hex8(v1) + "…, now " + hex8(v2) + "…)", cmd}},
		{"gone", script, false, [32]byte{}, false, []string{
			script + " was removed since workspace " + root + " was trusted (pinned sha256 " + hex8(v1) + "…)", cmd}},
		{"added", other, true, v1, false, []string{other + " was added since workspace " + root + " was trusted", cmd}},
		{"neither pinned nor present", other, false, [32]byte{}, true, nil},
	}
	for _, store := range []*Store{s, mustOpen(t, dir)} {
		for _, tt := range tests {
			ok, reason := store.CheckRunFile(root, tt.file, tt.present, tt.sum)
			if ok != tt.ok || ok && reason != "" {
				t.Errorf("%s: CheckRunFile = %v, %q; want %v", tt.name, ok, reason, tt.ok)
			}
			for _, want := range tt.reason {
				if !strings.Contains(reason, want) {
					t.Errorf("%s: reason %q\nwant it to contain %q", tt.name, reason, want)
				}
			}
		}
	}
	if ok, reason := s.CheckRunFile(t.TempDir(), script, true, v1); ok || !strings.Contains(reason, "is not trusted") {
		t.Errorf("in an untrusted workspace: %v, %q", ok, reason)
	}
}

func hex8(sum [32]byte) string { return hashOfSum(sum)[:8] }

func hashOfSum(sum [32]byte) string { return hex.EncodeToString(sum[:]) }

// TestOldEntryLeavesScriptsUnpinned reads a store written when trust
// pinned hooks files alone: the hooks file is still trusted, but a script
// its hooks run is not pinned, so it is refused with a reason saying why,
// until the workspace is trusted again.
func TestOldEntryLeavesScriptsUnpinned(t *testing.T) {
	dir := t.TempDir()
	root, hooks := workspace(t, "{}")
	script := filepath.Join(root, ".cursor", "hooks", "check.sh")
	sum := sha256.Sum256([]byte("echo 1"))
	old := map[string]any{"version": 1, "workspaces": map[string]any{
		mustEval(t, root): map[string]any{
			"trusted": "2025-01-02T03:04:05Z",
			"files":   map[string]string{mustEval(t, hooks): hashOf([]byte("{}"))},
		},
	}}
	data, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), data, 0o600); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, dir)
	if ok, reason := s.Check(root, hooks, []byte("{}")); !ok {
		t.Fatalf("old pin of the hooks file no longer holds: %s", reason)
	}
	if w, ok := s.Lookup(root); !ok || w.RunFiles {
		t.Errorf("Lookup = %+v, %v; want an old entry (RunFiles false)", w, ok)
	}
	ok, reason := s.CheckRunFile(root, script, true, sum)
	if ok || !strings.Contains(reason, script+" is run by a hook but not pinned: workspace "+root+" was trusted when trust covered only the hooks files") {
		t.Errorf("script under an old pin: %v, %q", ok, reason)
	}
	if ok, _ := s.CheckRunFile(root, filepath.Join(root, "absent"), false, [32]byte{}); !ok {
		t.Error("an absent, unpinned file is refused under an old pin")
	}

	if err := s.TrustSums(root, map[string][32]byte{hooks: sha256.Sum256([]byte("{}")), script: sum}); err != nil {
		t.Fatal(err)
	}
	if ok, reason := mustOpen(t, dir).CheckRunFile(root, script, true, sum); !ok {
		t.Errorf("after trusting again: %s", reason)
	}
	if w, _ := mustOpen(t, dir).Lookup(root); !w.RunFiles {
		t.Error("a new entry is not marked as pinning run files")
	}
}

// TestTrustIsTrustSums checks that the content form pins the same hashes.
func TestTrustIsTrustSums(t *testing.T) {
	root, hooks := workspace(t, "{}")
	s := mustOpen(t, t.TempDir())
	if err := s.Trust(root, map[string][]byte{hooks: []byte("{}"), "a.sh": []byte("echo")}); err != nil {
		t.Fatal(err)
	}
	if ok, reason := s.CheckRunFile(root, filepath.Join(root, "a.sh"), true, sha256.Sum256([]byte("echo"))); !ok {
		t.Error(reason)
	}
	if !s.Trusted(root) || s.Trusted(t.TempDir()) {
		t.Error("Trusted does not tell the trusted workspace from another")
	}
}

// TestDiff lists added, changed and removed files against the pins, and
// every file as added for a workspace never trusted.
func TestDiff(t *testing.T) {
	root, hooks := workspace(t, "{}")
	a, b, c := filepath.Join(root, "a.sh"), filepath.Join(root, "b.sh"), filepath.Join(root, "c.sh")
	one, two := sha256.Sum256([]byte("1")), sha256.Sum256([]byte("2"))
	s := mustOpen(t, t.TempDir())

	got := s.Diff(root, map[string][32]byte{a: one})
	if len(got) != 1 || got[0] != (Change{Path: a, Kind: Added, New: hashOfSum(one)}) {
		t.Errorf("untrusted: %+v", got)
	}
	if err := s.TrustSums(root, map[string][32]byte{hooks: one, a: one, b: one}); err != nil {
		t.Fatal(err)
	}
	if got := s.Diff(root, map[string][32]byte{hooks: one, a: one, b: one}); len(got) != 0 {
		t.Errorf("unchanged: %+v", got)
	}
	got = s.Diff(root, map[string][32]byte{hooks: one, ".cursor/../a.sh": two, c: one})
	want := []Change{
		{Path: a, Kind: Changed, Old: hashOfSum(one), New: hashOfSum(two)},
		{Path: filepath.Join(mustEval(t, root), "b.sh"), Kind: Removed, Old: hashOfSum(one)},
		{Path: c, Kind: Added, New: hashOfSum(one)},
	}
	if len(got) != len(want) {
		t.Fatalf("Diff = %+v\nwant %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestRunFileThroughSymlink checks that a script reached through a
// symlink is pinned by its target: the pin holds whichever name is used,
// and retargeting the link to another file is a change.
func TestRunFileThroughSymlink(t *testing.T) {
	root, _ := workspace(t, "{}")
	outside := t.TempDir()
	target, other := filepath.Join(outside, "real.sh"), filepath.Join(outside, "other.sh")
	for _, p := range []string{target, other} {
		if err := os.WriteFile(p, []byte("echo"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(root, "link.sh")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	sum := sha256.Sum256([]byte("echo"))
	s := mustOpen(t, t.TempDir())
	if err := s.TrustSums(root, map[string][32]byte{link: sum}); err != nil {
		t.Fatal(err)
	}
	if ok, reason := s.CheckRunFile(root, link, true, sum); !ok {
		t.Errorf("through the link: %s", reason)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.CheckRunFile(root, link, true, sum); ok {
		t.Error("a link pointed at another file still passes")
	}
}
