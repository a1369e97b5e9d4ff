//go:build unix

package proc

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// An argv runs without a shell: every word reaches the program as it is,
// nothing is expanded, and Command is ignored.
func TestArgvRunsWithoutShell(t *testing.T) {
	res, _ := run(t, Spec{Command: "echo wrong", Argv: []string{"printf", "%s|", "a b", "$HOME", "it's", "*", ""}})
	if res.StartErr != nil || res.ExitCode != 0 || !res.Direct {
		t.Fatalf("got %+v", res)
	}
	if got, want := string(res.Stdout), "a b|$HOME|it's|*||"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}

// A relative program path is found in Dir; one that is not there, or a
// name not on PATH, is a StartErr (not a shell's exit 127).
func TestArgvFindsTheProgram(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "bin/hello.sh", "#!/bin/sh\necho hello \"$1\"\n", 0o755)
	res, _ := run(t, Spec{Argv: []string{"./bin/hello.sh", "there"}, Dir: dir})
	if res.StartErr != nil || string(res.Stdout) != "hello there\n" {
		t.Fatalf("got %+v, stdout %q", res, res.Stdout)
	}
	for _, argv := range [][]string{{"./bin/missing.sh"}, {"agenthooks-no-such-program"}} {
		res, _ := run(t, Spec{Argv: argv, Dir: dir})
		if res.StartErr == nil || res.ExitCode != -1 {
			t.Errorf("%q: got %+v, want a StartErr", argv, res)
		}
	}
}

// Cancelling an argv's run stops its whole process group, as it does a
// command's: a background grandchild is gone too.
func TestArgvCancelStopsTheGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan Result, 1)
	go func() {
		done <- Run(ctx, Spec{Argv: []string{"/bin/sh", "-c", "sleep 60 & echo $! > " + pidFile + "; wait"}})
	}()
	pid := readPid(t, pidFile)
	cancel()
	var res Result
	select {
	case res = <-done:
	case <-time.After(time.Minute):
		t.Fatal("Run did not return after cancel")
	}
	if !res.Canceled {
		t.Errorf("got %+v, want canceled", res)
	}
	if !gone(pid, 5*time.Second) {
		t.Errorf("grandchild %d outlived the cancelled run", pid)
	}
}
