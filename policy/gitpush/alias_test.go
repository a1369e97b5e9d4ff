package gitpush

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/policy/internal/gittest"
	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// pushOf analyses every command of line in dir, and merges what they
// push, as a policy that asks whether any command pushes sees them.
func pushOf(t *testing.T, dir, line string) Push {
	t.Helper()
	var p Push
	for _, c := range shellscan.Commands(line) {
		p = mergePush(p, AnalyzeIn(context.Background(), c, Scope{Dir: dir, Line: line}))
	}
	return p
}

// describePush is a compact form of a Push for table tests: "-" for
// no push, "?" for a dynamic one, else "push" and the destinations.
func describePush(p Push) string {
	switch {
	case !p.Push:
		return "-"
	case p.Dynamic:
		return "?"
	}
	s := "push"
	if p.Implicit {
		s += " implicit"
	}
	for _, r := range p.Refspecs {
		s += " " + r.Dst
	}
	return s
}

// TestGitAliasesOnTheLine follows the aliases a line defines and gives,
// in a directory (not a repository) without any configured alias.
func TestGitAliasesOnTheLine(t *testing.T) {
	_, dir := gittest.Hermetic(t)
	chain := "git"
	for i := range maxAliasDepth + 2 {
		chain += " -c alias.a" + strconv.Itoa(i) + "=a" + strconv.Itoa(i+1)
	}
	chain += " -c alias.a" + strconv.Itoa(maxAliasDepth+2) + "=push a0 origin main"
	// Two values for each of 15 aliases in a chain: 2^15 combinations,
	// all ending in status, past the budget.
	explode := "git config alias.b15 status; "
	for i := range 15 {
		for _, v := range []string{"b", "'!git b'"} {
			explode += "git config alias.b" + strconv.Itoa(i) + " " + v + strconv.Itoa(i+1) + "; "
		}
	}
	explode += "git b0"
	cases := []struct{ line, want string }{
		// git config, every form, then the alias.
		{"git config alias.p push; git p origin main", "push main"},
		{"git config alias.p push && git p origin main", "push main"},
		{"git config --global alias.p '!git push'; git p", "push implicit"},
		{"git config --global alias.p '!git push origin main'; git p", "push main"},
		{"git config --local alias.p push; git p origin main", "push main"},
		{"git config --system alias.p push; git p origin main", "push main"},
		{"git config --worktree alias.p push; git p origin main", "push main"},
		{"git config --file .git/config alias.p push; git p origin main", "push main"},
		{"git config -f x alias.p push; git p origin main", "push main"},
		{"git config --add alias.p push; git p origin main", "push main"},
		{"git config set alias.p push && git p origin main", "push main"},
		{"git config set --global --comment c alias.p push; git p origin main", "push main"},
		{"git config Alias.P push; git P origin main", "push main"},
		{"git -C . config alias.p push; git p origin main", "push main"},
		{"bash -c 'git config alias.p push'; git p origin main", "push main"},
		{"git config alias.st status && git st", "-"},
		{"git config alias.l 'log --oneline'; git l -3", "-"},
		// Every definition counts, wherever it is on the line.
		{"git config alias.p push; false && git config alias.p status; git p origin main", "push main"},
		{"git config alias.p status; git p; git config alias.p 'push origin main'; git p", "push main main"},
		{"for i in 1 2; do git p; git config alias.p 'push origin main'; done", "push main"},
		{"git config alias.p \"$X\"; git p", "?"},
		{"git config \"$K\" push; git p", "?"},
		// Reading or removing an alias defines nothing.
		{"git config alias.p; git p", "?"},
		{"git config --get alias.p; git p", "?"},
		{"git config --unset alias.p; git p", "?"},
		// -c on the command decides alone; chains; loops.
		{"git -c alias.p=push p origin main", "push main"},
		{"git -c alias.p=st -c alias.st=push p origin main", "push main"},
		{"git -c alias.s=status -c alias.s=push s origin main", "push main"},
		{"git -c alias.s=push -c alias.s=status s origin main", "-"},
		{"git -c Alias.P=push p origin main", "push main"},
		{"git -c alias.a=b -c alias.b=a a", "?"},
		{"git -c alias.p=p p", "?"},
		{chain, "?"},
		{explode, "?"},
		{"git -c alias.p='-c x=y push' p origin main", "push main"},
		{"git -c alias.p=\"push origin 'ma''in'\" p", "push main"},
		{"git -c alias.p='push \"unclosed' p", "?"},
		{"git -c alias.p= p", "?"},
		{"git -c alias.p p", "?"},
		{"git -c \"alias.p=$X\" p", "?"},
		{"git --config-env=alias.p=X p", "?"},
		{"git -c include.path=/tmp/x -c alias.p=status p", "?"},
		// Shell aliases: the body is a command line.
		{"git -c alias.p='!git push' p origin main", "push main"},
		{"git -c alias.p='!git push origin' p main", "push main"},
		{"git -c alias.p='!f() { git push origin main; }; f' p", "push main"},
		{"git -c alias.p='!sh -c \"git push origin main\"' p", "push main"},
		{"git -c alias.p='!cd sub && git push origin main' p", "push main"},
		{"git -c alias.p='!true;' p git push origin main", "push main"},
		{"git -c alias.p='!echo' p '$(git push origin main)'", "-"},
		{"git -c alias.p='!echo hi' p", "-"},
		{"git -c alias.p='!make' p", "-"},
		{"git -c alias.p='!$(echo git) push' p", "?"},
		{"git -c alias.p='!eval \"$X\"' p", "?"},
		{"git -c alias.p='!git q' -c alias.q=push p origin main", "push main"},
		{"git -c alias.p='!git p' p", "?"},
		{"git -c alias.p='!git push origin a; git push upstream b' p", "?"},
		{"git -c alias.p='!git log > /tmp/log' p", "?"},
		// An alias that rewrites aliases: what follows cannot be read.
		{"git -c alias.p='!git config alias.q push' p", "?"},
		{"git -c alias.x='config alias.q push' x", "?"},
		{"git -c alias.x='config --edit' x", "?"},
		{"git -c alias.x='init' x", "?"},
		{"git -c alias.x='config --get-regexp alias' x", "-"},
		// Not git's own, not an alias: dynamic.
		{"git frobnicate origin main", "?"},
		{"git PUSH origin main", "?"},
		{"git p", "?"},
		{"git 'push ' origin main", "?"},
		// git's own, with and without an alias of the same name.
		{"git status", "-"},
		{"git -c alias.status=push status", "-"},
		{"git config alias.status push; git status", "-"},
		{"GIT push origin main", "push main"},
		{"git.exe push origin main", "push main"},
		// The configured aliases cannot be trusted after the line changes
		// the configuration some other way.
		{"git config alias.st status; echo '[alias] st = push' >> .git/config; git st", "?"},
		{"git config alias.st status; cp x .git/config; git st", "?"},
		{"git config alias.st status; sed -i s/status/push/ .git/config; git st", "?"},
		{"git config alias.st status; HOME=/tmp/x git st", "?"},
		{"git config alias.st status; export GIT_CONFIG_GLOBAL=/tmp/x; git st", "?"},
		{"git config alias.st status; unset HOME; git st", "?"},
		{"git config alias.st status; git config include.path /tmp/x; git st", "?"},
		{"git config alias.st status; git config --edit; git st", "?"},
		{"git config alias.st status; git init --template=/tmp/t; git st", "?"},
		{"git config alias.st status; $(echo git) config alias.st push; git st", "?"},
		{"git config alias.st status; sudo git st", "?"},
		{"git config alias.st status; cd \"$X\" && git st", "?"},
		{"git config alias.st status; git -C \"$X\" st", "?"},
		{"git config alias.st status; git --exec-path=/tmp/x st", "?"},
		{"git config alias.st status; git -C missing st", "?"},
		{"git config alias.st status; git log >/dev/null 2>&1; git st", "-"},
		{"git config alias.st status; git -C . st", "-"},
		{"git config alias.st status; cd . && git st", "-"},
	}
	for _, c := range cases {
		if got := describePush(pushOf(t, dir, c.line)); got != c.want {
			t.Errorf("%s\n got %s, want %s", c.line, got, c.want)
		}
	}
}

// TestGitAliasesUnknownDirectory: without a directory, the configured
// aliases are unknown, so only -c decides an alias.
func TestGitAliasesUnknownDirectory(t *testing.T) {
	gittest.Hermetic(t)
	cases := []struct{ line, want string }{
		{"git config alias.p push; git p origin main", "?"},
		{"git config alias.st status; git st", "?"},
		{"git -c alias.st=status st", "-"},
		{"git -c alias.p=push p origin main", "push main"},
		{"git push origin main", "push main"},
	}
	for _, c := range cases {
		if got := describePush(pushOf(t, "", c.line)); got != c.want {
			t.Errorf("%s\n got %s, want %s", c.line, got, c.want)
		}
	}
	cmds := shellscan.Commands("git st")
	if got := describePush(Analyze(cmds[0])); got != "?" {
		t.Errorf("Analyze(git st) = %s, want ?", got)
	}
}

// TestGitConfiguredAliases reads the aliases of a real repository and
// of the global configuration.
func TestGitConfiguredAliases(t *testing.T) {
	home, dir := gittest.Hermetic(t)
	repo := gittest.RepoWithAliases(t, home, dir)
	cases := []struct{ dir, line, want string }{
		{repo, "git p origin main", "push main"},
		{repo, "git p origin feature", "push feature"},
		{repo, "git st", "-"},
		{repo, "git pm", "push main"},
		{repo, "git sh", "push main"},
		{repo, "git shf origin main", "?"}, // "$@" inside a function is not known
		{repo, "git chain", "push main"},
		{repo, "git loop1", "?"},
		{repo, "git up", "push main"},
		{repo, "git UP", "push main"},
		{repo, "git g origin main", "push main"},
		{repo, "git st2", "-"},
		{repo, "git nope", "?"},
		{filepath.Join(repo, "sub"), "git p origin main", "push main"},
		{dir, "git -C repo p origin main", "push main"},
		{dir, "git -C repo/sub p origin main", "push main"},
		{dir, "cd repo && git p origin main", "push main"},
		{dir, "git --git-dir=repo/.git p origin main", "push main"},
		{dir, "git p origin main", "?"}, // not the repository: only the global aliases
		{dir, "git g origin main", "push main"},
		{dir, "git st2", "-"},
		// On the line and configured: either may be the alias.
		{repo, "git config alias.p status; git p origin main", "push main"},
		{repo, "git config alias.st 'push origin main'; git st", "push main"},
		{repo, "git -c alias.p=status p", "-"},
		{repo, "git config alias.st status; echo x > f; git st", "?"},
	}
	for _, c := range cases {
		if got := describePush(pushOf(t, c.dir, c.line)); got != c.want {
			t.Errorf("in %s: %s\n got %s, want %s", c.dir, c.line, got, c.want)
		}
	}
}

// age sets the times of files (and of every entry of the directories
// given) an hour back, so that the cache trusts them: a file modified
// within racyWindow of a read is read again on every use.
func age(t *testing.T, paths ...string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	for _, p := range paths {
		if entries, err := os.ReadDir(p); err == nil {
			for _, e := range entries {
				if err := os.Chtimes(filepath.Join(p, e.Name()), old, old); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// countingGit puts first in PATH a git that logs its arguments to a file
// and runs the real git, and returns a function counting the runs of
// `git … config --list`.
func countingGit(t *testing.T) func() int {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("a shell script as git")
	}
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	writeFile(t, filepath.Join(bin, "git"), "#!/bin/sh\necho \"$*\" >> "+log+"\nexec "+real+" \"$@\"\n")
	if err := os.Chmod(filepath.Join(bin, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "config --list")
	}
}

// TestGitAliasCache: an answer is kept while the files it depends on are
// unchanged (git does not run again), and read again once one changes:
// the repository's config, an include (even one that did not exist),
// the global file, or a repository created below.
func TestGitAliasCache(t *testing.T) {
	home, dir := gittest.Hermetic(t)
	runs := countingGit(t)
	repo := gittest.RepoWithAliases(t, home, dir)
	gitDir := filepath.Join(repo, ".git")
	global := filepath.Join(home, ".gitconfig")
	gittest.Git(t, repo, "config", "include.path", "extra.cfg") // relative to .git, absent for now
	age(t, gitDir, global)

	check := func(d, line, want string, wantRuns int) {
		t.Helper()
		if got := describePush(pushOf(t, d, line)); got != want {
			t.Errorf("in %s: %s\n got %s, want %s", d, line, got, want)
		}
		if n := runs(); n != wantRuns {
			t.Errorf("in %s: %s: git config ran %d times in all, want %d", d, line, n, wantRuns)
		}
	}
	check(repo, "git st origin main", "-", 1)
	check(repo, "git st origin main", "-", 1) // kept
	check(repo, "git p origin main", "push main", 1)
	gittest.Git(t, repo, "config", "alias.st", "push")
	check(repo, "git st origin main", "push main", 2)

	age(t, gitDir)
	check(repo, "git inc origin main", "?", 3)
	check(repo, "git inc origin main", "?", 3)
	writeFile(t, filepath.Join(gitDir, "extra.cfg"), "[alias]\n\tinc = push\n")
	check(repo, "git inc origin main", "push main", 4)

	age(t, gitDir)
	check(repo, "git st2", "-", 5)
	check(repo, "git st2", "-", 5)
	gittest.Git(t, home, "config", "--global", "alias.st2", "push origin main")
	check(repo, "git st2", "push main", 6)

	sub := filepath.Join(dir, "plain")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	age(t, global, sub)
	check(sub, "git st", "?", 7)
	check(sub, "git st", "?", 7)
	gittest.Git(t, sub, "init", "-q")
	gittest.Git(t, sub, "config", "alias.st", "push origin main")
	check(sub, "git st", "push main", 8)
}

// TestGitAliasLookupFails: when git cannot answer (no git, a git that
// hangs past the timeout, a context already done), an alias is dynamic.
func TestGitAliasLookupFails(t *testing.T) {
	home, dir := gittest.Hermetic(t)
	repo := gittest.RepoWithAliases(t, home, dir)

	cmds := shellscan.Commands("git st")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := describePush(AnalyzeIn(ctx, cmds[0], Scope{Dir: filepath.Join(repo, "sub")})); got != "?" {
		t.Errorf("with a cancelled context: got %s, want ?", got)
	}

	if runtime.GOOS == "windows" {
		return
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	bin := t.TempDir()
	marker := filepath.Join(bin, "ran")
	writeFile(t, filepath.Join(bin, "git"), "#!/bin/sh\n: > "+marker+"\nexec "+sleep+" 30\n")
	if err := os.Chmod(filepath.Join(bin, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	if got := describePush(pushOf(t, repo, "git st")); got != "?" {
		t.Errorf("with a git that hangs: got %s, want ?", got)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the git that hangs did not run: %v", err)
	}
	t.Setenv("PATH", t.TempDir())
	if got := describePush(pushOf(t, filepath.Join(repo, "sub"), "git st")); got != "?" {
		t.Errorf("without git: got %s, want ?", got)
	}
}

// TestGitExternalBeforeAlias: git runs a program git-<name> on PATH in
// preference to the alias <name>, so the alias says nothing.
func TestGitExternalBeforeAlias(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script as the external command")
	}
	_, dir := gittest.Hermetic(t)
	bin := t.TempDir()
	writeFile(t, filepath.Join(bin, "git-st"), "#!/bin/sh\ngit push origin main\n")
	if err := os.Chmod(filepath.Join(bin, "git-st"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := describePush(pushOf(t, dir, "git -c alias.st=status st")); got != "-" {
		t.Fatalf("before: got %s, want -", got)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if got := describePush(pushOf(t, dir, "git -c alias.st=status st")); got != "?" {
		t.Errorf("with git-st on PATH: got %s, want ?", got)
	}
}

// TestGitKnownCommands: a command of git's own that is not a builtin
// everywhere runs when installed, before any alias of its name; missing,
// its alias runs, and without one it is an error, not a push. A name that
// is not git's own runs a program we cannot see when git finds one.
func TestGitKnownCommands(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts as git programs")
	}
	_, dir := gittest.Hermetic(t)
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin, execDir := t.TempDir(), t.TempDir()
	if err := os.Symlink(real, filepath.Join(bin, "git")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	t.Setenv("GIT_EXEC_PATH", execDir)
	program := func(name string) {
		t.Helper()
		writeFile(t, filepath.Join(execDir, name), "#!/bin/sh\nexit 0\n")
		if err := os.Chmod(filepath.Join(execDir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	program("git-svn")
	cases := []struct{ dir, line, want string }{
		{dir, "git svn dcommit", "-"},
		{dir, "git -c alias.svn='push origin main' svn", "-"},
		{dir, "git p4 sync", "-"},
		{dir, "git -c alias.p4='push origin main' p4", "push main"},
		{"", "git p4 sync", "?"}, // missing, and its alias cannot be read
		{"", "git svn dcommit", "-"},
		{dir, "git -c alias.foo=status foo", "-"},
		{dir, "git --exec-path=/elsewhere -c alias.foo=status foo", "?"},
		{dir, "PATH=/elsewhere git -c alias.foo=status foo", "?"},
	}
	for _, c := range cases {
		if got := describePush(pushOf(t, c.dir, c.line)); got != c.want {
			t.Errorf("in %q: %s\n got %s, want %s", c.dir, c.line, got, c.want)
		}
	}
	program("git-foo")
	if got := describePush(pushOf(t, dir, "git -c alias.foo=status foo")); got != "?" {
		t.Errorf("with git-foo installed: got %s, want ?", got)
	}
}
