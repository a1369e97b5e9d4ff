//go:build linux

package e2e

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/needs"
	"github.com/agenthooks/agenthooks/sandbox"
)

// TestSandboxStopsWhatTheHookCannotSee is the case hooks alone lose: the
// workspace's hook denies any command with "git push" in it, and
// ./push.sh runs git push where the hook cannot read it. The hook lets
// ./push.sh through; the sandbox (network default deny) stops the push
// before it reaches the remote. With the sandbox off, the same script
// reaches it: the test can fail.
func TestSandboxStopsWhatTheHookCannotSee(t *testing.T) {
	if err := sandbox.Supported(sandbox.Policy{Network: sandbox.Network{Default: sandbox.NetDeny}}); err != nil {
		needs.Missing(t, "the sandbox needs Landlock: "+err.Error())
	}
	git, err := exec.LookPath("git")
	if err != nil {
		needs.Missing(t, "git is needed: apt-get install git")
	}
	w := newWorkspace(t)

	// The remote: a smart-HTTP git server's address on 127.0.0.1, which
	// counts the requests that reach it.
	var hits atomic.Int64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		http.Error(rw, "no repository here", http.StatusNotFound)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	remote := "http://" + ln.Addr().String() + "/repo.git"

	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=e2e", "-c", "user.email=e2e@example.com", "commit", "-q", "--allow-empty", "-m", "first"}} {
		cmd := exec.Command(git, args...)
		cmd.Dir = w.Dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	mustWrite(t, filepath.Join(w.Dir, "push.sh"), "#!/bin/sh\nexec '"+git+"' push '"+remote+"' HEAD:refs/heads/main\n", 0o755)
	sandboxFile := filepath.Join(w.Dir, ".cursor", "sandbox.json")

	push := func() (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		return w.run(ctx, w.Bin, "exec", "--", "./push.sh")
	}

	mustWrite(t, sandboxFile, `{"networkPolicy": {"default": "deny"}}`, 0o644)
	w.agenthooks("trust", w.Dir)
	out, err := push()
	if err == nil {
		t.Fatalf("./push.sh succeeded inside the sandbox:\n%s", out)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the remote got %d requests from inside the sandbox:\n%s", n, out)
	}
	t.Logf("inside the sandbox, ./push.sh says:\n%s", out)
	if !strings.Contains(out, "agenthooks sandbox:") || !strings.Contains(out, "networkPolicy") {
		t.Errorf("the failure does not name the sandbox rule:\n%s", out)
	}
	var before, after string
	for _, p := range w.hookPayloads() {
		switch {
		case strings.Contains(p, `"hook_event_name":"beforeShellExecution"`) && strings.Contains(p, "./push.sh"):
			before = p
		case strings.Contains(p, `"hook_event_name":"afterShellExecution"`) && strings.Contains(p, "./push.sh"):
			after = p
		}
	}
	if !strings.Contains(before, `"sandbox":true`) {
		t.Errorf("the hook was not told the command runs sandboxed: %s", before)
	}
	if !strings.Contains(after, `"sandbox":true`) || !strings.Contains(after, "agenthooks sandbox:") {
		t.Errorf("afterShellExecution does not say the sandbox stopped the command: %s", after)
	}

	// The control: the same script, the sandbox off.
	mustWrite(t, sandboxFile, `{"type": "insecure_none"}`, 0o644)
	w.agenthooks("trust", w.Dir)
	out, _ = push()
	if hits.Load() == 0 {
		t.Fatalf("with the sandbox off, ./push.sh still did not reach the remote: the test proves nothing:\n%s", out)
	}
	if _, err := os.Stat(sandboxFile); err != nil {
		t.Fatal(err)
	}
}
