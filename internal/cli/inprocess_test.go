package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPolicyRunsInProcess: `agenthooks run` evaluates an `agenthooks
// policy FILE` hook itself. No agenthooks is on the hooks' PATH, so a
// spawned process would fail (and fail open); only the in-process
// evaluation can deny.
func TestPolicyRunsInProcess(t *testing.T) {
	bin := binary(t)
	policyFile, err := filepath.Abs("../../examples/policies/git.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := `{"version":1,"hooks":{"beforeShellExecution":[{"command":"agenthooks policy ` + policyFile + `"}]}}`
	if err := os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ command, want string }{
		{"x=git; $x push origin main", `"permission":"deny"`},
		{"git push origin feature/x", `{}`},
	} {
		cmd := exec.Command(bin, "run", "beforeShellExecution")
		cmd.Env = []string{
			"PATH=/usr/bin:/bin", "HOME=" + home,
			"AGENTHOOKS_CONFIG_DIR=" + filepath.Join(dir, "config"),
			"AGENTHOOKS_STATE_DIR=" + filepath.Join(dir, "state"),
			"AGENTHOOKS_ENTERPRISE_CONFIG=" + filepath.Join(dir, "none.json"),
		}
		cmd.Stdin = strings.NewReader(`{"command":` + quoteJSON(c.command) + `,"cwd":"/"}`)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%q: %v", c.command, err)
		}
		if !bytes.Contains(out, []byte(c.want)) {
			t.Fatalf("%q: response %s, want %s", c.command, out, c.want)
		}
	}
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
