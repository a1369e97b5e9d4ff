package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/trust"
)

// TestPinnedProjectFileFailsClosed: a command inside the sandbox can write
// the workspace, and so its .cursor/sandbox.json. Once the workspace is
// trusted with that file pinned, editing or removing it must not open the
// sandbox (as leaving an untrusted file out would): every command is
// refused until the user reviews it. A file never trusted, or added after
// the trust, is left out with a warning, as an untrusted project's hooks
// are: that cannot loosen what was in force.
func TestPinnedProjectFileFailsClosed(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	file := filepath.Join(ws, ".cursor", "sandbox.json")
	write := func(s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	store, err := trust.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	loc := config.Locations{Home: home, EnterpriseFile: filepath.Join(home, "none", "hooks.json"), WorkspaceRoots: []string{ws}}
	load := func() *Loaded { return Load(loc, store) }

	const strict = `{"networkPolicy": {"default": "deny"}}`
	write(strict)
	if l := load(); l.Err() != nil || l.Policy.Configured {
		t.Fatalf("a never-trusted project's file: err %v, configured %v (want left out with a warning)", l.Err(), l.Policy.Configured)
	}
	if err := store.Trust(ws, map[string][]byte{file: []byte(strict)}); err != nil {
		t.Fatal(err)
	}
	if l := load(); l.Err() != nil || l.Policy.Network.Default != NetDeny {
		t.Fatalf("the trusted file: err %v, network %+v", l.Err(), l.Policy.Network)
	}

	write(`{"type": "insecure_none"}`)
	err = load().Err()
	if err == nil || !strings.Contains(err.Error(), "changed since the workspace was trusted") {
		t.Fatalf("an edited pinned file: %v, want every command refused", err)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	err = load().Err()
	if err == nil || !strings.Contains(err.Error(), "removed since the workspace was trusted") {
		t.Fatalf("a removed pinned file: %v, want every command refused", err)
	}

	// A workspace trusted without a sandbox file, which one appears in.
	if err := store.Trust(ws, map[string][]byte{}); err != nil {
		t.Fatal(err)
	}
	write(`{"type": "insecure_none"}`)
	if l := load(); l.Err() != nil || l.Policy.Configured {
		t.Fatalf("a file added since the trust: err %v, configured %v (want left out)", l.Err(), l.Policy.Configured)
	}
}
