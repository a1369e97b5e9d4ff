//go:build unix

package policy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/needs"
)

// The differential harness runs command lines for real and holds the
// analyses to what happened: a throwaway repository whose origin is a
// local bare repository, a recording git and git-receive-pack first on
// PATH, and the real sh, dash and bash. A line that moved a protected
// branch of origin but was let through is a miss; a line that pushed
// nothing but was judged a push is a false denial. Both must be zero.

// rig is one prepared world: a template copied for every run.
type rig struct {
	template string
	realGit  string
	shells   []string // absolute paths, each binary once
}

// protectedRef reports the refs git.yaml protects.
func protectedRef(ref string) bool {
	return ref == "refs/heads/main" || ref == "refs/heads/master" || strings.HasPrefix(ref, "refs/heads/release/")
}

func newRig(t testing.TB) *rig {
	t.Helper()
	realGit, err := exec.LookPath("git")
	if err != nil {
		needs.Missing(t, "the differential harness needs git")
	}
	r := &rig{template: t.TempDir(), realGit: realGit}
	seen := map[string]bool{}
	for _, sh := range []string{"sh", "dash", "bash"} {
		p, err := exec.LookPath(sh)
		if err != nil {
			needs.Missing(t, "the differential harness runs every line under sh, dash and bash: install "+sh)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Fatal(err)
		}
		if !seen[real] {
			seen[real] = true
			r.shells = append(r.shells, p)
		}
	}
	dir := r.template
	for _, d := range []string{"home", "bin", "work"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The recorders: every git run and every receive-pack (the far end
	// of a push to a local path) leaves a line in log/.
	recorder := func(name, exe string) {
		script := fmt.Sprintf("#!/bin/sh\nd=$(dirname \"$0\")/../log\nmkdir -p \"$d\"\nprintf '%%s\\n' \"$*\" >> \"$d/%s\"\nexec %s \"$@\"\n", name, exe)
		if err := os.WriteFile(filepath.Join(dir, "bin", name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// What some spellings use: a configuration file that maps pushes
	// of feature/x to main (for an include), and a hooks folder whose
	// post-commit hook pushes main.
	if err := os.WriteFile(filepath.Join(dir, "home", "inc.cfg"), []byte("[remote \"origin\"]\n\tpush = refs/heads/feature/x:refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "h"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "h", "post-commit"), []byte("#!/bin/sh\ngit push -q origin main\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	recorder("git", realGit)
	recorder("git-receive-pack", realGit+" receive-pack")
	if cat, err := exec.LookPath("cat"); err == nil {
		recorder("cat", cat)
	}
	env := r.env(dir)
	git := func(wd string, args ...string) {
		t.Helper()
		cmd := exec.Command(realGit, args...)
		cmd.Dir, cmd.Env = wd, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	work := filepath.Join(dir, "work")
	git(dir, "init", "-q", "--bare", "-b", "main", "origin.git")
	git(work, "init", "-q", "-b", "main")
	git(work, "config", "user.email", "a@example.com")
	git(work, "config", "user.name", "a")
	commit := func(msg string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(work, "f.txt"), []byte(msg), 0o644); err != nil {
			t.Fatal(err)
		}
		git(work, "add", "f.txt")
		git(work, "commit", "-q", "-m", msg)
	}
	commit("one")
	git(work, "remote", "add", "origin", "../origin.git")
	git(work, "push", "-q", "origin", "main", "main:release/1", "main:master")
	git(work, "branch", "--set-upstream-to=origin/main")
	git(work, "checkout", "-q", "-b", "feature/x")
	commit("feature")
	git(work, "checkout", "-q", "main")
	if err := os.MkdirAll(filepath.Join(work, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "sub", "s.txt"), []byte("sub"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(work, "add", "sub")
	commit("two") // main is ahead of origin's: pushing it moves origin's main
	// What the setup itself recorded is not a run's.
	for _, p := range []string{"trace.log", "log"} {
		if err := os.RemoveAll(filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// env is the environment a line runs in: the run's own home and
// configuration, the recorders first on PATH, nothing that waits for a
// terminal.
func (r *rig) env(dir string) []string {
	return []string{
		"HOME=" + filepath.Join(dir, "home"),
		"PATH=" + filepath.Join(dir, "bin") + ":/usr/local/bin:/usr/bin:/bin",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CEILING_DIRECTORIES=" + dir,
		"GIT_TERMINAL_PROMPT=0",
		"GIT_TRACE=" + filepath.Join(dir, "trace.log"),
		"GIT_PAGER=cat", "PAGER=cat", "MANPAGER=cat", "GIT_EDITOR=true",
		"LANG=C", "TMPDIR=" + dir,
	}
}

// judgeEnv is the environment a policy decides a line of the world in
// dir with: the one the line runs in (its home, its configuration, the
// recorders on PATH), as an agent's shell hands it to agenthooks, without
// the trace (the policy's own runs of git are not the line's).
func (r *rig) judgeEnv(dir string) DecideOption {
	var env []string
	for _, kv := range r.env(dir) {
		if !strings.HasPrefix(kv, "GIT_TRACE=") {
			env = append(env, kv)
		}
	}
	return CallerEnv(env)
}

// outcome is what a run did.
type outcome struct {
	changed   []string // origin's refs that moved, were created or deleted
	protected bool     // one of them is protected
	attempted bool     // a push reached origin, or git ran one
	output    string
}

// refs lists origin's refs with their objects.
func (r *rig) refs(t testing.TB, dir string) map[string]string {
	t.Helper()
	cmd := exec.Command(r.realGit, "--git-dir", filepath.Join(dir, "origin.git"), "for-each-ref", "--format=%(refname) %(objectname)")
	cmd.Env = r.env(dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reading origin's refs: %v", err)
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if ref, obj, ok := strings.Cut(l, " "); ok {
			m[ref] = obj
		}
	}
	return m
}

// fresh copies the template for one run.
func (r *rig) fresh(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(r.template)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// run runs line with shell in dir/work and reports what it did.
func (r *rig) run(t testing.TB, dir, shell, line string) outcome {
	t.Helper()
	before := r.refs(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, "-c", line)
	cmd.Dir = filepath.Join(dir, "work")
	cmd.Env = r.env(dir)
	cmd.Stdin = nil
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	_ = cmd.Run() // a failing line is an outcome like any other
	if ctx.Err() != nil {
		t.Errorf("%s -c %q: timed out", shell, line)
	}
	after := r.refs(t, dir)
	var o outcome
	o.output = out.String()
	for ref, obj := range after {
		if before[ref] != obj {
			o.changed = append(o.changed, ref)
		}
	}
	for ref := range before {
		if _, ok := after[ref]; !ok {
			o.changed = append(o.changed, ref)
		}
	}
	slices.Sort(o.changed)
	for _, ref := range o.changed {
		o.protected = o.protected || protectedRef(ref)
	}
	trace, _ := os.ReadFile(filepath.Join(dir, "trace.log"))
	received, _ := os.ReadFile(filepath.Join(dir, "log", "git-receive-pack"))
	o.attempted = len(o.changed) > 0 || len(received) > 0 ||
		bytes.Contains(trace, []byte("built-in: git push")) || bytes.Contains(trace, []byte("built-in: git send-pack")) ||
		bytes.Contains(trace, []byte("git-receive-pack")) || bytes.Contains(trace, []byte("git-remote-")) ||
		// A push whose environment dropped the trace (env -) still
		// says it reached origin, or was refused there.
		strings.Contains(o.output, "To ../origin.git") || strings.Contains(o.output, "failed to push some refs")
	return o
}

// judged is a policy's decision on a line, and how it reads.
type judged struct {
	decision event.Permission
	rule     string
}

func judge(t testing.TB, p *Policy, line, cwd string, opts ...DecideOption) judged {
	t.Helper()
	return judgeInput(t, p, map[string]any{"command": line, "cwd": cwd}, opts...)
}

// judgeInput decides a payload given as its fields.
func judgeInput(t testing.TB, p *Policy, input map[string]any, opts ...DecideOption) judged {
	t.Helper()
	line, _ := input["command"].(string)
	payload, _ := json.Marshal(input)
	v, err := p.DecideJSON(context.Background(), event.BeforeShellExecution, payload, opts...)
	if err != nil {
		var ee *EvalError
		if !errors.As(err, &ee) {
			t.Fatalf("deciding %q: %v", line, err)
		}
		return judged{decision: event.Deny, rule: "(error)"} // failClosed
	}
	j := judged{decision: v.Decision}
	if v.Rule != nil {
		j.rule = v.Rule.Name
	}
	return j
}

// noPushPolicy is "no push, and nothing we cannot read".
const noPushPolicy = `version: 1
rules:
  - name: push
    steps: [beforeShellExecution]
    when: commands(command).exists(c, cel.bind(p, gitPush(c), p.push && !p.dynamic))
    decision: deny
  - name: unreadable
    steps: [beforeShellExecution]
    when: commands(command).exists(c, c.dynamic || gitPush(c).dynamic)
    decision: deny
`

// verdicts is one policy's tally over the harness.
type verdicts struct {
	name               string
	pushRules          []string // rules that say "this is a push"
	protectedOnly      bool     // a miss is a protected ref moved (else any ref)
	runs, pushes, miss int
	protectedPushes    int // runs that moved a protected branch
	falseDenials       int
}

// check holds one run to the policy's verdict. runnable says the line
// can run as written in the rig (the grammar's lines and everyday work):
// only then does pushing nothing prove it was no push. A case file's
// line may fail for want of what it names (zsh, sudo, ./bin/git, a
// directory repo) and is held to misses alone; its cases file says what
// it must be judged.
func (v *verdicts) check(t testing.TB, shell, line string, j judged, o outcome, runnable bool) {
	t.Helper()
	v.runs++
	if len(o.changed) > 0 {
		v.pushes++
	}
	if o.protected {
		v.protectedPushes++
	}
	harmful := len(o.changed) > 0
	if v.protectedOnly {
		harmful = o.protected
	}
	if harmful && j.decision != event.Deny {
		v.miss++
		t.Errorf("%s: MISS with %s: %q moved %v but was judged %q\n%s", v.name, shell, line, o.changed, j.decision, o.output)
	}
	if runnable && !o.attempted && slices.Contains(v.pushRules, j.rule) {
		v.falseDenials++
		t.Errorf("%s: FALSE DENIAL with %s: %q pushed nothing but rule %s judged it a push\n%s", v.name, shell, line, j.rule, o.output)
	}
}

func (v *verdicts) String() string {
	return fmt.Sprintf("%s: %d runs, %d pushed (%d moved a protected branch), %d misses, %d false denials",
		v.name, v.runs, v.pushes, v.protectedPushes, v.miss, v.falseDenials)
}

// harness runs sessions (lines run one after the other in one copy of
// the world, each judged right before it runs) with every shell, under
// git.yaml and the no-push policy. Sessions run a few at a time (go),
// each in its own copy of the world (async).
type harness struct {
	rig     *rig
	git     *Policy
	noPush  *Policy
	mu      sync.Mutex // guards tallies' counts
	tallies []*verdicts
	slots   chan struct{}
	wg      sync.WaitGroup
}

// async runs a session in the background, bounded by h.slots.
func (h *harness) async(t testing.TB, runnable bool, lines ...string) {
	h.slots <- struct{}{}
	h.wg.Go(func() {
		defer func() { <-h.slots }()
		h.session(t, runnable, lines...)
	})
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	gitPolicy, err := Load(examplePath(t, "git.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "nopush.yaml")
	if err := os.WriteFile(file, []byte(noPushPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	noPush, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{
		rig: newRig(t), git: gitPolicy, noPush: noPush, slots: make(chan struct{}, 2*runtime.GOMAXPROCS(0)),
		tallies: []*verdicts{
			{name: "git.yaml", pushRules: []string{"push-to-protected-branch", "push-without-branch"}, protectedOnly: true},
			{name: "no push, nothing unreadable", pushRules: []string{"push"}},
		},
	}
}

// session runs lines in order in a fresh world with each shell.
func (h *harness) session(t testing.TB, runnable bool, lines ...string) {
	t.Helper()
	for _, shell := range h.rig.shells {
		dir := h.rig.fresh(t)
		cwd := filepath.Join(dir, "work")
		// A session stops, under a policy, at the first line it
		// denies (a failClosed hook refuses it): the lines after it
		// are not held to that policy.
		stopped := make([]bool, len(h.tallies))
		for _, line := range lines {
			env := h.rig.judgeEnv(dir)
			js := []judged{judge(t, h.git, line, cwd, env), judge(t, h.noPush, line, cwd, env)}
			o := h.rig.run(t, dir, shell, line)
			h.mu.Lock()
			for i, v := range h.tallies {
				if !stopped[i] {
					v.check(t, filepath.Base(shell), line, js[i], o, runnable)
				}
				stopped[i] = stopped[i] || js[i].decision == event.Deny
			}
			h.mu.Unlock()
		}
	}
}

// ordinary are lines of everyday work that git.yaml must let through,
// run for real too (the feature pushes do push).
var ordinary = []string{
	"git status",
	"git log --oneline -3",
	"git push origin feature/x",
	"git push origin HEAD:feature/new",
	"git push -u origin feature/x",
	"git push origin feature/x:feature/y",
	"git push --help",
	"git push -h",
	"git -c core.pager=cat log -1",
	"git diff HEAD~1 --stat",
	"git log --oneline | head -3",
	"git commit -q --allow-empty -m 'push to main'",
	"echo git push origin main",
	"grep -r 'git push' . || true",
	"cd sub && git commit -q --allow-empty -m x",
	"git -C sub status",
	"git --git-dir=.git log -1",
	"GIT_PAGER=cat git log -1",
	"EDITOR=vim git log -1",
	"git config core.pager cat",
	"echo hi > out.txt && cat out.txt",
	"ENV=production true",
	"PS1='$ ' true",
	"git branch -f tmp HEAD && git branch -D tmp",
}

// pushForms are git arguments for the grammar: pushes of every shape,
// and commands that push nothing.
var pushForms = []string{
	"push origin main",
	"push origin HEAD:main",
	"push origin +main",
	"push origin HEAD:refs/heads/release/9",
	"push origin :release/1",
	"push --delete origin master",
	"push origin 'refs/heads/ma*:refs/heads/ma*'",
	"push",
	"push origin",
	"push --all origin",
	"push ../origin.git main",
	"-c remote.origin.push=refs/heads/feature/x:refs/heads/main push origin feature/x",
	"-c alias.p=push p origin main",
	"subtree push --prefix=sub origin main",
	"send-pack ../origin.git main",
	"push origin feature/x",
	"push --help",
	"status",
	"-c include.path=~/inc.cfg push origin feature/x",
	"-C ../origin.git fetch ../work main:main",
	"--git-dir=../origin.git branch -D release/1",
	"-c core.hooksPath=../h commit -q --allow-empty -m x",
}

// spellings are ways to run `PROGRAM ARGS` (%[1]s the program, %[2]s
// its arguments): the analysis must see through each, or say it cannot.
var spellings = []string{
	"%[1]s %[2]s",
	"command %[1]s %[2]s",
	"env %[1]s %[2]s",
	"env -i PATH=$PATH HOME=$HOME %[1]s %[2]s",
	"env -vS'%[1]s %[2]s'",
	"x=%[1]s; $x %[2]s",
	"x=; : ${x:=%[1]s}; $x %[2]s",
	"alias g=%[1]s\ng %[2]s",
	"eval '%[1]s %[2]s'",
	"bash -c '%[1]s %[2]s'",
	"sh -c \"%[1]s %[2]s\"",
	"sh /dev/stdin <<'EOF'\n%[1]s %[2]s\nEOF",
	"bash /proc/self/fd/0 <<'EOF'\n%[1]s %[2]s\nEOF",
	"bash /dev/fd/3 3<<'EOF'\n%[1]s %[2]s\nEOF",
	"echo \"%[1]s %[2]s\" | sh",
	"(cd sub && cd .. && %[1]s %[2]s)",
	"f() { %[1]s \"$@\"; }; f %[2]s",
	"if true; then %[1]s %[2]s; fi",
	"timeout 10 %[1]s %[2]s",
	"python3 -c 'import os; os.system(\"\"\"%[1]s %[2]s\"\"\")'",
	"awk 'BEGIN { system(\"%[1]s %[2]s\") }'",
	"find . -maxdepth 0 -exec %[1]s %[2]s \\;",
	"echo %[1]s %[2]s",
	"env - PATH=\"$PATH\" %[1]s %[2]s",
	"env 'BASH_FUNC_f%%%%=() { %[1]s %[2]s; }' bash -c f",
	"echo '%[1]s %[2]s' > ../x.sh; sh ../x.sh",
	"echo '%[1]s %[2]s' > ../env.sh; BASH_ENV=../env.sh bash -c true",
	"GIT_EDITOR='%[1]s %[2]s; true' git commit -q --allow-empty",
	"printf '#!/bin/sh\\n%[1]s %[2]s\\n' > .git/hooks/post-commit; chmod +x .git/hooks/post-commit; git commit -q --allow-empty -m x",
	"awk -f /dev/stdin <<'EOF'\nBEGIN { system(\"%[1]s %[2]s\") }\nEOF",
	". /dev/stdin <<'EOF'\n%[1]s %[2]s\nEOF",
	"prlimit --nofile=1024 %[1]s %[2]s",
	"taskset -c 0 %[1]s %[2]s",
}

// grammarLine is the line of the grammar for a pair of choices.
func grammarLine(prog string, forms []string, spelling, form uint8) string {
	return fmt.Sprintf(spellings[int(spelling)%len(spellings)], prog, forms[int(form)%len(forms)])
}

// sessions are multi-line sessions: configuration set by one command
// that chooses what a later push updates.
var sessions = [][]string{
	{"git config remote.origin.push refs/heads/feature/x:refs/heads/main", "git push origin feature/x"},
	{"git config push.default current", "git push"},
	{"git config alias.p push", "git p origin main"},
	{"git checkout -q feature/x", "git push origin HEAD"},
	{"git config include.path '~/inc.cfg'", "git push origin feature/x"},
	{"git config core.hooksPath ../h", "git commit -q --allow-empty -m x"},
	{"git config --global remote.origin.push refs/heads/feature/x:refs/heads/main", "git push origin feature/x"},
	{"git config --global alias.p push", "git p origin main"},
	{"git bundle create ../b.bundle main", "git -C ../origin.git fetch ../b.bundle main:main"},
}

// caseLines are the shell lines of an example's case file that can be
// run here (no package managers, no network tools).
func caseLines(t testing.TB, name string) []string {
	t.Helper()
	cases, err := LoadCases(examplePath(t, name+".cases.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cases {
		line, _ := c.Input["command"].(string)
		if line == "" || c.Step != event.BeforeShellExecution && c.Step != "" {
			continue
		}
		skip := false
		for _, w := range []string{"apt-get", "npm", "go test", "docker", "gh ", "curl", "wget"} {
			skip = skip || strings.Contains(line, w)
		}
		if !skip {
			out = append(out, line)
		}
	}
	return out
}

// TestPushHarness runs git.yaml's case lines, everyday work, the
// grammar's lines and the sessions for real, under git.yaml and the
// no-push policy, and reports the tallies.
func TestPushHarness(t *testing.T) {
	needs.Short(t, "the differential harness (several hundred command lines run for real)")
	h := newHarness(t)
	for _, line := range caseLines(t, "git") {
		h.async(t, false, line)
	}
	for _, line := range ordinary {
		h.async(t, true, line)
		if j := judge(t, h.git, line, filepath.Join(h.rig.template, "work")); j.decision == event.Deny {
			t.Errorf("git.yaml denies everyday work %q (rule %s)", line, j.rule)
		}
	}
	for s := range spellings {
		for f := range pushForms {
			h.async(t, true, grammarLine("git", pushForms, uint8(s), uint8(f)))
		}
	}
	for _, s := range sessions {
		h.async(t, true, s...)
	}
	h.wg.Wait()
	for _, v := range h.tallies {
		t.Log(v)
	}
}

// FuzzPushHarness runs one line of the grammar, chosen by the fuzzer,
// for real. Its corpus (testdata/fuzz/FuzzPushHarness) holds the
// (spelling, form) pairs of the bypasses that once went through: ${x:=git},
// a shell alias, a wildcard refspec, remote.origin.push, env -vS, a
// script on /dev/stdin or a file descriptor, subtree push, send-pack,
// python -c, awk's system(), env -, an exported bash function, BASH_ENV,
// GIT_EDITOR, a script or git hook written then run, awk -f /dev/stdin,
// . /dev/stdin, -c include.path, a fetch into (or a branch deleted in)
// origin's bare repository, programs the analysis does not know
// (prlimit, taskset), and push --help (no push).
func FuzzPushHarness(f *testing.F) {
	f.Add(uint8(0), uint8(0)) // git push origin main
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, spelling, form uint8) {
		h.session(t, true, grammarLine("git", pushForms, spelling, form))
	})
}
