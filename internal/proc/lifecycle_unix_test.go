//go:build unix

package proc

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestTimeout(t *testing.T) {
	const timeout, grace = 200 * time.Millisecond, 3 * time.Second
	res, elapsed := run(t, Spec{Command: "sleep 30", Timeout: timeout, Grace: grace})
	if !res.TimedOut || res.Canceled || res.Signal != "terminated" || res.ExitCode != -1 {
		t.Errorf("got %+v, want a timeout ended by TERM", res)
	}
	// TERM suffices: no waiting for the grace before KILL.
	if elapsed < timeout || elapsed > timeout+time.Second {
		t.Errorf("took %v, want about %v", elapsed, timeout)
	}
}

// TestTermIgnored: a hook that ignores TERM is killed after the grace.
func TestTermIgnored(t *testing.T) {
	const timeout, grace = 200 * time.Millisecond, 500 * time.Millisecond
	res, elapsed := run(t, Spec{Command: "trap '' TERM; echo ready; sleep 60", Timeout: timeout, Grace: grace})
	if !res.TimedOut || res.Signal != "killed" || string(res.Stdout) != "ready\n" {
		t.Errorf("got %+v, want a timeout ended by KILL", res)
	}
	if elapsed < timeout+grace || elapsed > timeout+2*grace+time.Second {
		t.Errorf("took %v, want between %v and %v", elapsed, timeout+grace, timeout+2*grace)
	}
}

// TestGrandchildHangs: a hang where a grandchild also holds stdout is
// timed out in bounded time and the grandchild is gone afterwards.
func TestGrandchildHangs(t *testing.T) {
	const timeout, grace = 300 * time.Millisecond, 300 * time.Millisecond
	dir := t.TempDir()
	res, elapsed := run(t, Spec{
		Command: `sh -c 'sleep 60 & echo $! > gc.pid; sleep 60'`,
		Dir:     dir, Timeout: timeout, Grace: grace,
	})
	pid := readPid(t, filepath.Join(dir, "gc.pid"))
	killLater(t, pid)
	if !res.TimedOut || res.ExitCode != -1 {
		t.Errorf("got %+v, want a timeout", res)
	}
	if elapsed > timeout+2*grace+time.Second {
		t.Errorf("took %v", elapsed)
	}
	if !gone(pid, 2*time.Second) {
		t.Errorf("grandchild %d still exists", pid)
	}
}

// TestGrandchildHoldsStdout: the leader exits normally while a background
// job keeps stdout open; Run waits Grace for EOF, then kills the group.
func TestGrandchildHoldsStdout(t *testing.T) {
	const grace = 300 * time.Millisecond
	dir := t.TempDir()
	res, elapsed := run(t, Spec{
		Command: "sleep 60 & echo $! > gc.pid; echo leader done",
		Dir:     dir, Grace: grace,
	})
	pid := readPid(t, filepath.Join(dir, "gc.pid"))
	killLater(t, pid)
	if res.ExitCode != 0 || res.TimedOut || res.Canceled || string(res.Stdout) != "leader done\n" {
		t.Errorf("got %+v, want the leader's normal exit and output", res)
	}
	if elapsed < grace || elapsed > grace+time.Second {
		t.Errorf("took %v, want about the grace %v", elapsed, grace)
	}
	if !gone(pid, 2*time.Second) {
		t.Errorf("grandchild %d still exists", pid)
	}
}

// TestBackgroundJobLeftAlone: a background job that redirected its stdio
// is fire-and-forget and survives a normal exit, without Run waiting.
func TestBackgroundJobLeftAlone(t *testing.T) {
	const grace = 5 * time.Second
	dir := t.TempDir()
	res, elapsed := run(t, Spec{
		Command: "sleep 60 >/dev/null 2>&1 & echo $! > gc.pid",
		Dir:     dir, Grace: grace,
	})
	pid := readPid(t, filepath.Join(dir, "gc.pid"))
	killLater(t, pid)
	if res.ExitCode != 0 {
		t.Errorf("got %+v", res)
	}
	if elapsed > grace/2 {
		t.Errorf("took %v: Run waited for a job that holds no pipe", elapsed)
	}
	time.Sleep(100 * time.Millisecond)
	if !alive(pid) {
		t.Errorf("background job %d was killed", pid)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(200*time.Millisecond, cancel)
	began := time.Now()
	res := Run(ctx, Spec{Command: "sleep 30", Grace: 3 * time.Second})
	elapsed := time.Since(began)
	if !res.Canceled || res.TimedOut || res.Signal != "terminated" {
		t.Errorf("got %+v, want canceled and terminated", res)
	}
	if elapsed > 1500*time.Millisecond {
		t.Errorf("took %v", elapsed)
	}
}

func TestCanceledBeforeStart(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := Run(ctx, Spec{Command: "echo ran > marker", Dir: dir})
	if !res.Canceled || res.ExitCode != -1 || res.StartErr != nil {
		t.Errorf("got %+v", res)
	}
	if _, err := os.Stat(filepath.Join(dir, "marker")); err == nil {
		t.Error("the command ran although ctx was already done")
	}
}

// TestNothingLeaks: after each kind of ending, no goroutine and no file
// descriptor of Run is left behind.
func TestNothingLeaks(t *testing.T) {
	dir := t.TempDir()
	specs := []Spec{
		{Command: "echo ok", Stdin: []byte("in")},
		{Command: "cat", Stdin: bytes.Repeat([]byte("y"), 1<<20)},
		{Command: "sleep 10", Timeout: 50 * time.Millisecond, Grace: 100 * time.Millisecond},
		{Command: "head -c 10000000 /dev/zero", StdoutCap: 1000},
		{Command: "sleep 60 & echo $! > gc.pid", Grace: 100 * time.Millisecond, Stdin: bytes.Repeat([]byte("z"), 1<<20)},
		{Command: "true", Dir: filepath.Join(dir, "missing")},
	}
	goroutines := runtime.NumGoroutine()
	fds := openFDs()
	for _, s := range specs {
		if s.Dir == "" {
			s.Dir = dir
		}
		run(t, s)
	}
	gone(readPid(t, filepath.Join(dir, "gc.pid")), 2*time.Second)
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > goroutines && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > goroutines {
		t.Errorf("%d goroutines after the runs, %d before", n, goroutines)
	}
	if n := openFDs(); fds >= 0 && n != fds {
		t.Errorf("%d open file descriptors after the runs, %d before", n, fds)
	}
}

// TestTimeoutKillsEverything: after a timeout nothing of the hook survives,
// not even a background job that ignores TERM and holds no pipe (the
// fire-and-forget exemption is for normal exits only).
func TestTimeoutKillsEverything(t *testing.T) {
	dir := t.TempDir()
	res, elapsed := run(t, Spec{
		Command: "(trap '' TERM; exec sleep 60) >/dev/null 2>&1 & echo $! > gc.pid; sleep 60",
		Dir:     dir, Timeout: 300 * time.Millisecond, Grace: 2 * time.Second,
	})
	pid := readPid(t, filepath.Join(dir, "gc.pid"))
	killLater(t, pid)
	if !res.TimedOut || res.Signal != "terminated" {
		t.Errorf("got %+v, want a timeout ended by TERM", res)
	}
	// TERM at the timeout, the Grace for what ignores it, then KILL.
	if elapsed > 300*time.Millisecond+2*time.Second+time.Second {
		t.Errorf("took %v", elapsed)
	}
	if !gone(pid, 2*time.Second) {
		t.Errorf("background job %d survived the timeout", pid)
	}
}
