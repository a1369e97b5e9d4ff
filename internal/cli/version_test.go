package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/internal/needs"
)

// TestVersionText checks the human form names the commit and flags a
// build from a modified tree, which the commit alone would misdescribe.
func TestVersionText(t *testing.T) {
	var out bytes.Buffer
	o := &versionOptions{io: &IO{Out: &out}, getInfo: func() buildInfo {
		return buildInfo{Version: "v1.2.3", Commit: "abc123", CommitTime: "2026-01-02T03:04:05Z", Modified: true, GoVersion: "go1.26.0", Platform: "linux/arm64"}
	}}
	if err := o.run(); err != nil {
		t.Fatal(err)
	}
	want := "agenthooks v1.2.3\ncommit:   abc123 (modified)\ntime:     2026-01-02T03:04:05Z\ngo:       go1.26.0 linux/arm64\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestVersionBuiltBinary builds agenthooks the way a release does (the
// version given with -ldflags, VCS stamping on whatever GOFLAGS says,
// inside the repository) and checks the binary reports that version and
// the repository's HEAD commit.
func TestVersionBuiltBinary(t *testing.T) {
	needs.Short(t, "the command line's tests that build the agenthooks binary (signals, terminals, version stamps)")
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	ctx := context.Background()
	head, err := exec.CommandContext(ctx, gitPath, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "agenthooks")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=true",
		"-ldflags", "-X github.com/agenthooks/agenthooks/internal/cli.Version=v9.8.7",
		"-o", bin, "../../cmd/agenthooks-engine")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.CommandContext(ctx, bin, "version", "--json").Output()
	if err != nil {
		t.Fatalf("agenthooks version --json: %v", err)
	}
	var got buildInfo
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("version --json printed %q: %v", out, err)
	}
	if got.Version != "v9.8.7" {
		t.Errorf("version = %q, want the -ldflags value v9.8.7", got.Version)
	}
	// The go command stamps a build only when the checkout's .git is a
	// directory: a linked worktree (.git a file) gets no stamp.
	top, err := exec.CommandContext(ctx, gitPath, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("git rev-parse --show-toplevel: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err == nil && fi.IsDir() {
		if want := strings.TrimSpace(string(head)); got.Commit != want {
			t.Errorf("commit = %q, want HEAD %q", got.Commit, want)
		}
		if got.CommitTime == "" {
			t.Error("commit time is empty")
		}
	} else if got.Commit != "" {
		t.Errorf("commit = %q from a checkout the go command does not stamp", got.Commit)
	}
	if got.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("platform = %q", got.Platform)
	}
}
