//go:build unix

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	cliOnce sync.Once
	cliBin  string
	cliErr  error
)

// cliBinary builds agenthooks and agenthooks-engine once per test
// process and returns the first.
func cliBinary(t *testing.T) string {
	t.Helper()
	cliOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agenthooks-team-e2e-")
		if err != nil {
			cliErr = err
			return
		}
		out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "../../cmd/agenthooks", "../../cmd/agenthooks-engine").CombinedOutput()
		if err != nil {
			cliErr = fmt.Errorf("build agenthooks: %v\n%s", err, out)
		}
		cliBin = filepath.Join(dir, "agenthooks")
	})
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	return cliBin
}

// person runs agenthooks as one user of one machine: a home, a state
// folder and an environment of their own.
type person struct {
	t   *testing.T
	bin string
	dir string
	env []string
}

func newPerson(t *testing.T, bin, root, name string, extra ...string) *person {
	home := filepath.Join(root, name, "home")
	for _, d := range []string{home, filepath.Join(root, name, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "USER=" + name, "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1",
		"TMPDIR=" + filepath.Join(root, name, "tmp"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"AGENTHOOKS_CONFIG_DIR=" + filepath.Join(root, name, "config"),
		"AGENTHOOKS_STATE_DIR=" + filepath.Join(root, name, "state"),
		"AGENTHOOKS_ENTERPRISE_CONFIG=" + filepath.Join(root, name, "etc", "hooks.json"),
	}
	return &person{t: t, bin: bin, dir: home, env: append(env, extra...)}
}

// run runs agenthooks with stdin and returns its exit code, stdout and
// stderr.
func (p *person) run(stdin string, args ...string) (int, string, string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.bin, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = p.dir, p.env, strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		p.t.Fatalf("agenthooks %s: %v", strings.Join(args, " "), err)
	}
	return code, out.String(), errb.String()
}

// must runs agenthooks and fails the test unless it exits 0.
func (p *person) must(args ...string) string {
	p.t.Helper()
	code, out, errs := p.run("", args...)
	if code != 0 {
		p.t.Fatalf("agenthooks %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

// TestTeamLeadAndMemberThroughTheCLI plays a team lead and a member with
// the agenthooks command alone: the lead pushes a workspace's two hooks
// and their scripts, the member syncs and is denied a push by the team's
// hook, the lead pushes a changed script (the diff shown, one new
// revision), and a revoked token is refused.
func TestTeamLeadAndMemberThroughTheCLI(t *testing.T) {
	bin := cliBinary(t)
	root := t.TempDir()
	ops := newPerson(t, bin, root, "ops")

	// The server, on a port of its own.
	admin := strings.TrimSpace(ops.must("serve", "token", "create", "--admin", "--name", "lead"))
	ctx, cancel := context.WithCancel(context.Background())
	serve := exec.CommandContext(ctx, bin, "serve", "--listen", "127.0.0.1:0")
	serve.Dir, serve.Env = ops.dir, ops.env
	var serveLog lockedBuffer
	serve.Stdout, serve.Stderr = &serveLog, &serveLog
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = serve.Wait() })
	url := ""
	for deadline := time.Now().Add(20 * time.Second); url == ""; {
		if m := regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+)`).FindStringSubmatch(serveLog.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("the server did not start:\n%s", serveLog.String())
		}
		time.Sleep(20 * time.Millisecond)
	}

	lead := newPerson(t, bin, root, "lead", "AGENTHOOKS_TEAM_SERVER="+url, "AGENTHOOKS_TEAM_TOKEN="+admin)
	if out := lead.must("team", "create", "platform"); !strings.Contains(out, `created team "platform"`) {
		t.Fatalf("team create: %s", out)
	}
	ws := filepath.Join(root, "repo")
	write := func(rel, content string, mode os.FileMode) {
		t.Helper()
		path := filepath.Join(ws, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(".cursor/hooks.json", `{"version": 1, "hooks": {
  "beforeShellExecution": [{"command": ".cursor/hooks/no-push.sh", "matcher": "git push", "failClosed": true, "timeout": 10}],
  "afterFileEdit": [{"command": "bash .cursor/hooks/record-edit.sh"}]
}}`, 0o644)
	write(".cursor/hooks/no-push.sh", "#!/bin/sh\ncat >/dev/null\necho '{\"permission\":\"deny\",\"user_message\":\"pushes go through review\"}'\n", 0o755)
	write(".cursor/hooks/record-edit.sh", "#!/bin/sh\ncat >/dev/null\necho '{}'\n", 0o644)

	// Without --yes and without a terminal, nothing is pushed.
	code, out, errs := lead.run("", "team", "push", "--team", "platform", ws)
	if code == 0 || !strings.Contains(errs, "--yes") || !strings.Contains(out, "added") {
		t.Fatalf("push without --yes: exit %d\n%s%s", code, out, errs)
	}
	out = lead.must("team", "push", "--team", "platform", "--yes", ws)
	for _, want := range []string{"revision 0 → 1", "added    beforeShellExecution no-push.sh", "added    afterFileEdit record-edit.sh", "+echo '{\"permission\":\"deny\"", "pushed: team \"platform\" is at revision 1 (2 hooks)"} {
		if !strings.Contains(out, want) {
			t.Errorf("first push lacks %q:\n%s", want, out)
		}
	}
	var hooks struct {
		Hooks []struct {
			ScriptName, HookStep, Matcher string
			FailClosed                    bool
		}
		Revision string
	}
	if err := json.Unmarshal([]byte(lead.must("team", "hooks", "platform", "--json")), &hooks); err != nil {
		t.Fatal(err)
	}
	if hooks.Revision != "1" || len(hooks.Hooks) != 2 || hooks.Hooks[0].ScriptName != "no-push.sh" || !hooks.Hooks[0].FailClosed || hooks.Hooks[0].Matcher != "git push" {
		t.Fatalf("the team's hooks after the push: %+v", hooks)
	}

	memberSecret := strings.TrimSpace(lead.must("team", "token", "create", "--team", "platform", "--name", "laptop"))
	member := newPerson(t, bin, root, "member", "AGENTHOOKS_TEAM_SERVER="+url, "AGENTHOOKS_TEAM_TOKEN="+memberSecret)
	if out := member.must("sync", "--accept"); !strings.Contains(out, "revision 1") {
		t.Fatalf("sync --accept: %s", out)
	}
	// A denied action on the member's machine: the team's hook answers.
	payload := `{"command": "git push origin main", "cwd": "` + member.dir + `", "hook_event_name": "beforeShellExecution", "workspace_roots": ["` + member.dir + `"]}`
	code, out, errs = member.run(payload, "run", "beforeShellExecution")
	if !strings.Contains(out, `"permission":"deny"`) || !strings.Contains(out, "pushes go through review") {
		t.Fatalf("the member's git push: exit %d\n%s%s", code, out, errs)
	}

	// A second push with one script changed: the diff, one revision.
	write(".cursor/hooks/no-push.sh", "#!/bin/sh\ncat >/dev/null\necho '{\"permission\":\"deny\",\"user_message\":\"pushes go through the merge queue\"}'\n", 0o755)
	out = lead.must("team", "push", "--team", "platform", "--yes", ws)
	t.Logf("the second push:\n%s", out)
	for _, want := range []string{"revision 1 → 2", "changed  beforeShellExecution no-push.sh (script)", "--- no-push.sh (revision 1)",
		"-echo '{\"permission\":\"deny\",\"user_message\":\"pushes go through review\"}'", "+echo '{\"permission\":\"deny\",\"user_message\":\"pushes go through the merge queue\"}'",
		"pushed: team \"platform\" is at revision 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("second push lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "record-edit.sh") {
		t.Errorf("the unchanged hook is shown as a change:\n%s", out)
	}
	if out := lead.must("team", "push", "--team", "platform", "--yes", ws); !strings.Contains(out, "nothing to push") {
		t.Errorf("the same set again: %s", out)
	}
	if out := member.must("sync"); !strings.Contains(out, "revision 2") {
		t.Fatalf("the member's second sync: %s", out)
	}
	code, out, _ = member.run(payload, "run", "beforeShellExecution")
	if !strings.Contains(out, "merge queue") {
		t.Fatalf("the member's git push after the second sync: exit %d\n%s", code, out)
	}

	// The member's token revoked: refused at once.
	var tokens struct{ Tokens []struct{ ID, Name string } }
	if err := json.Unmarshal([]byte(lead.must("team", "token", "list", "--team", "platform", "--json")), &tokens); err != nil {
		t.Fatal(err)
	}
	if len(tokens.Tokens) != 1 || tokens.Tokens[0].Name != "laptop" {
		t.Fatalf("the team's tokens: %+v", tokens)
	}
	lead.must("team", "token", "revoke", tokens.Tokens[0].ID)
	code, out, errs = member.run("", "sync")
	if code == 0 || !strings.Contains(out+errs, "not valid") {
		t.Fatalf("sync with the revoked token: exit %d\n%s%s", code, out, errs)
	}
}
