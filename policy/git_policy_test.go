package policy

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/policy/internal/gittest"
)

// noPush is the policy that must not be bypassed through aliases.
const noPush = `version: 1
rules:
  - name: no-push
    steps: [beforeShellExecution, preToolUse]
    when: commands(command).exists(c, c.dynamic || gitPush(c).push)
    decision: deny
  - name: literal
    steps: [beforeShellExecution]
    when: |
      cel.bind(p, gitPush({"name": "git", "args": ["st"], "dynamic_args": []}), p.push && command == "literal")
    decision: deny
`

// decideShell decides a beforeShellExecution payload with command and
// cwd ("" for none).
func decideShell(t *testing.T, p *Policy, command, cwd string) event.Permission {
	t.Helper()
	in := map[string]any{"command": command}
	if cwd != "" {
		in["cwd"] = cwd
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	v, err := p.DecideJSON(context.Background(), event.BeforeShellExecution, b)
	if err != nil {
		t.Fatal(err)
	}
	return v.Decision
}

// TestPolicySeesAliases: gitPush in a policy follows the aliases of the
// line and of the repository at the payload's cwd (or the Shell tool's
// working_directory), through both ways a payload reaches a policy.
func TestPolicySeesAliases(t *testing.T) {
	home, dir := gittest.Hermetic(t)
	repo := gittest.RepoWithAliases(t, home, dir)
	p := mustCompile(t, noPush)
	cases := []struct {
		command, cwd string
		want         event.Permission
	}{
		{"git p origin feature", repo, event.Deny},
		{"git st", repo, event.NoOpinion},
		{"git status", repo, event.NoOpinion},
		{"git sh", repo, event.Deny},
		{"git frobnicate", repo, event.Deny},
		{"git config alias.q push; git q origin x", repo, event.Deny},
		{"git config --global alias.q '!git push'; git q", repo, event.Deny},
		{"git config alias.q status && git q", repo, event.NoOpinion},
		{"git -C repo p origin x", dir, event.Deny},
		{"cd repo && git st", dir, event.NoOpinion},
		{"git st", "", event.Deny},         // no directory: the alias is unknown
		{"git st", "relative", event.Deny}, // not absolute: unknown
		{"literal", repo, event.NoOpinion},
		{"literal", dir, event.Deny},
	}
	for _, c := range cases {
		if got := decideShell(t, p, c.command, c.cwd); got != c.want {
			t.Errorf("%q in %q: got %q, want %q", c.command, c.cwd, got, c.want)
		}
		in := map[string]any{"command": c.command}
		if c.cwd != "" {
			in["cwd"] = c.cwd
		}
		v, err := p.Decide(context.Background(), event.BeforeShellExecution, in)
		if err != nil || v.Decision != c.want {
			t.Errorf("Decide %q in %q: got %q (%v), want %q", c.command, c.cwd, v.Decision, err, c.want)
		}
	}

	tool := []struct {
		cwd, wd string
		want    event.Permission
	}{
		{dir, repo, event.NoOpinion},
		{dir, "repo", event.NoOpinion},
		{repo, "", event.NoOpinion},
		{dir, "", event.Deny},
		{"", "", event.Deny},
	}
	for _, c := range tool {
		ti := map[string]any{"command": "git st"}
		if c.wd != "" {
			ti["working_directory"] = c.wd
		}
		in := map[string]any{"tool_name": "Shell", "tool_input": ti}
		if c.cwd != "" {
			in["cwd"] = c.cwd
		}
		b, _ := json.Marshal(in)
		v, err := p.DecideJSON(context.Background(), event.PreToolUse, b)
		if err != nil || v.Decision != c.want {
			t.Errorf("preToolUse git st, cwd %q, working_directory %q: got %q (%v), want %q", c.cwd, c.wd, v.Decision, err, c.want)
		}
	}
}

// TestPolicyAliasChangeBetweenDecisions: the analysis of a line is
// cached, but not what it read from the repository: the same line is
// decided anew after the alias changes, and in another directory.
func TestPolicyAliasChangeBetweenDecisions(t *testing.T) {
	home, dir := gittest.Hermetic(t)
	repo := gittest.RepoWithAliases(t, home, dir)
	p := mustCompile(t, noPush)
	line := "git st origin feature"
	if got := decideShell(t, p, line, repo); got != event.NoOpinion {
		t.Fatalf("before: got %q", got)
	}
	gittest.Git(t, repo, "config", "alias.st", "push")
	if got := decideShell(t, p, line, repo); got != event.Deny {
		t.Errorf("after git config alias.st push: got %q, want deny", got)
	}
	gittest.Git(t, repo, "config", "alias.st", "status")
	if got := decideShell(t, p, line, repo); got != event.NoOpinion {
		t.Errorf("after git config alias.st status: got %q, want none", got)
	}
	if got := decideShell(t, p, line, filepath.Dir(repo)); got != event.Deny {
		t.Errorf("outside the repository: got %q, want deny", got)
	}
}

// TestPolicyGitTimeBounded: one decision spends at most gitTimeout
// running git, however many lookups its rules need: once a git that
// hangs has used it up, the other lookups do not start, and the commands
// that needed them are dynamic.
func TestPolicyGitTimeBounded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script as git")
	}
	_, dir := gittest.Hermetic(t)
	for _, d := range []string{"a", "b", "c"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	bin := t.TempDir()
	runs := filepath.Join(bin, "runs")
	writeFile(t, filepath.Join(bin, "git"), "#!/bin/sh\necho run >> "+runs+"\nexec "+sleep+" 30\n")
	if err := os.Chmod(filepath.Join(bin, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	// Every command is looked at (filter does not stop early).
	p := mustCompile(t, `rules:
  - name: all-dynamic
    steps: [beforeShellExecution]
    when: size(commands(command).filter(c, gitPush(c).dynamic)) == 3
    decision: deny
`)
	if got := decideShell(t, p, "git -C a x; git -C b y; git -C c z", dir); got != event.Deny {
		t.Errorf("got %q, want deny", got)
	}
	b, err := os.ReadFile(runs)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "run"); n != 1 {
		t.Errorf("git ran %d times in one decision, want 1", n)
	}
}
