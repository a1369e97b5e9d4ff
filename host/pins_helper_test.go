package host_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/trust"
)

// trustedHost writes files (relative to a workspace root) under a
// temporary folder, trusts the workspace as `agenthooks trust` does, lets
// the files age past the racy window (so that a step reloads only when a
// stat changes) and opens a host on it. It returns the host, the root and
// a writer of workspace files.
func trustedHost(tb testing.TB, files map[string]string) (*host.Host, string, func(rel, content string)) {
	tb.Helper()
	dir := tb.TempDir()
	home, root, cfg, state := filepath.Join(dir, "home"), filepath.Join(dir, "ws"), filepath.Join(dir, "config"), filepath.Join(dir, "state")
	write := func(rel, content string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	for rel, content := range files {
		write(rel, content)
	}
	for _, d := range []string{filepath.Join(home, ".cursor"), state} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	trustWorkspace(tb, cfg, root)
	time.Sleep(2100 * time.Millisecond)
	h := host.Open(context.Background(), host.Options{
		Environ:  []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "AGENTHOOKS_CONFIG_DIR=" + cfg, "AGENTHOOKS_STATE_DIR=" + state},
		TrustDir: cfg,
		Locations: func(roots []string) config.Locations {
			return config.Locations{Home: home, EnterpriseFile: filepath.Join(dir, "none.json"), WorkspaceRoots: roots}
		},
	})
	tb.Cleanup(func() { _ = h.Close(context.Background()) })
	return h, root, write
}

// trustWorkspace trusts root in the trust store under dir as `agenthooks
// trust` does: every project-level file of every agent pinned. It
// returns the store.
func trustWorkspace(tb testing.TB, dir, root string) *trust.Store {
	tb.Helper()
	store, err := trust.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	pins, err := agents.Sources().ProjectPins(root)
	if err != nil {
		tb.Fatal(err)
	}
	if err := store.TrustSums(root, pins); err != nil {
		tb.Fatal(err)
	}
	return store
}
