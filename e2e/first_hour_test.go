//go:build unix

package e2e

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestFirstHour plays first-hour.sh, a newcomer's first hour on a fresh
// home, with the real Claude Code and Gemini CLI from npm.
func TestFirstHour(t *testing.T) {
	claude := agent(t, "claude")
	gemini := agent(t, "gemini")
	if filepath.Dir(claude) != filepath.Dir(gemini) {
		t.Fatalf("claude (%s) and gemini (%s) are not installed side by side", claude, gemini)
	}
	bin := binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "first-hour.sh")
	cmd.Env = []string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"AGENTHOOKS_BIN_DIR=" + filepath.Dir(bin),
		"AGENTS_BIN=" + filepath.Dir(claude),
		"GORACE=atexit_sleep_ms=0",
	}
	out, err := cmd.CombinedOutput()
	t.Logf("first-hour.sh:\n%s", out)
	if err != nil {
		t.Fatalf("first-hour.sh: %v", err)
	}
}
