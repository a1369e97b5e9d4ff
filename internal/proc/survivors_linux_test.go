package proc

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// markers makes each marker unique across tests and test binaries, so a
// survivor of another run can never be mistaken for one of this test.
var markers atomic.Int64

// marker returns a sleep duration of about secs seconds that no other
// process on the machine has on its command line, and makes sure every
// process carrying it is killed when the test ends.
func marker(t *testing.T, secs int) string {
	t.Helper()
	m := fmt.Sprintf("%d.%d%04d", secs, os.Getpid(), markers.Add(1))
	t.Cleanup(func() {
		for _, pid := range marked(m) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			gone(pid, 5*time.Second)
		}
	})
	return m
}

// marked lists the live processes that have m as an argument. A zombie
// has an empty command line and is not listed.
func marked(m string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		for arg := range bytes.SplitSeq(b, []byte{0}) {
			if string(arg) == m {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// noneLeft reports whether every process carrying m is gone within the
// given time (reaping those re-parented to the test binary).
func noneLeft(m string, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for {
		pids := marked(m)
		for _, pid := range pids {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
		if len(pids) == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// appears reports whether a process carrying m shows up within the given
// time: a background job forked before the hook exited may exec its
// program only after Run has returned.
func appears(m string, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for len(marked(m)) == 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// TestSetsidHolderKilled: a descendant that left the group with setsid and
// keeps stdout is killed once the hook has ended and Grace has passed.
func TestSetsidHolderKilled(t *testing.T) {
	const grace = 300 * time.Millisecond
	m := marker(t, 300)
	res, elapsed := run(t, Spec{Command: "setsid sleep " + m + " & echo hi", Grace: grace})
	if res.ExitCode != 0 || res.TimedOut || res.Canceled || string(res.Stdout) != "hi\n" {
		t.Errorf("got %+v, want the leader's normal exit and output", res)
	}
	if elapsed < grace {
		t.Errorf("took %v: Run did not wait the grace %v for the output", elapsed, grace)
	}
	if !noneLeft(m, 2*time.Second) {
		t.Errorf("setsid'd holder of stdout survived: %v", marked(m))
	}
}

// TestDoubleForkHolderKilled: a descendant that double-forks through a new
// session, lets go of stdout but keeps stderr, is killed: it leads neither
// its group nor its session, and its parent is gone.
func TestDoubleForkHolderKilled(t *testing.T) {
	m := marker(t, 300)
	res, _ := run(t, Spec{
		Command: "setsid sh -c 'sleep " + m + " >/dev/null &'; echo done",
		Grace:   300 * time.Millisecond,
	})
	if res.ExitCode != 0 || string(res.Stdout) != "done\n" {
		t.Errorf("got %+v", res)
	}
	if !noneLeft(m, 2*time.Second) {
		t.Errorf("double-forked holder of stderr survived: %v", marked(m))
	}
}

// TestEscapedGroupKilled: a holder that made a group of its own takes that
// group with it, as the hook's own group goes when output is held, even
// the members that redirected their output.
func TestEscapedGroupKilled(t *testing.T) {
	holder, job := marker(t, 300), marker(t, 301)
	res, _ := run(t, Spec{
		Command: "setsid sh -c 'sleep " + job + " >/dev/null 2>&1 & exec sleep " + holder + "' & echo hi",
		Grace:   300 * time.Millisecond,
	})
	if res.ExitCode != 0 || string(res.Stdout) != "hi\n" {
		t.Errorf("got %+v", res)
	}
	if !noneLeft(holder, 2*time.Second) {
		t.Errorf("holder survived: %v", marked(holder))
	}
	if !noneLeft(job, 2*time.Second) {
		t.Errorf("the job in the holder's group survived: %v", marked(job))
	}
}

// TestFireAndForgetSurvives: jobs that let go of stdout and stderr survive
// a normal exit, whether they left the group or not, and Run does not wait
// for them.
func TestFireAndForgetSurvives(t *testing.T) {
	const grace = 5 * time.Second
	for _, form := range []string{
		"setsid sleep %s >/dev/null 2>&1 & echo hi",
		"nohup sleep %s >/dev/null 2>&1 & echo hi",
		"(sleep %s >/dev/null 2>&1 &); echo hi",
		"setsid sh -c 'sleep %s >/dev/null 2>&1 &'; echo hi",
	} {
		m := marker(t, 301)
		command := fmt.Sprintf(form, m)
		res, elapsed := run(t, Spec{Command: command, Grace: grace})
		if res.ExitCode != 0 || string(res.Stdout) != "hi\n" {
			t.Errorf("%s: got %+v", command, res)
		}
		if elapsed > grace/2 {
			t.Errorf("%s: took %v: Run waited for a job that holds no pipe", command, elapsed)
		}
		if !appears(m, 5*time.Second) {
			t.Errorf("%s: the job was killed", command)
		}
	}
}

// TestEscapedJobSurvivesHolderKill: when a holder is killed, a job of the
// same hook that left the group and let go of the output is untouched.
func TestEscapedJobSurvivesHolderKill(t *testing.T) {
	holder, job := marker(t, 300), marker(t, 301)
	// The hook waits until the job has left its group, so the group kill
	// cannot catch it still inside on a slow machine.
	res, _ := run(t, Spec{
		Command: "setsid sh -c 'touch left; exec sleep " + job + "' >/dev/null 2>&1 & " +
			"until [ -e left ]; do sleep 0.01; done; setsid sleep " + holder + " & echo hi",
		Dir: t.TempDir(), Grace: 300 * time.Millisecond,
	})
	if res.ExitCode != 0 || string(res.Stdout) != "hi\n" {
		t.Errorf("got %+v", res)
	}
	if !noneLeft(holder, 2*time.Second) {
		t.Errorf("holder survived: %v", marked(holder))
	}
	if !appears(job, 5*time.Second) {
		t.Error("the job that let go of the output was killed")
	}
}

// TestTimeoutKillsEscapedHolder: the leader hangs while a setsid'd child
// holds stdout; after the timeout nothing of either is left.
func TestTimeoutKillsEscapedHolder(t *testing.T) {
	holder, leader := marker(t, 300), marker(t, 302)
	res, _ := run(t, Spec{
		Command: "setsid sleep " + holder + " & exec sleep " + leader,
		Timeout: 300 * time.Millisecond, Grace: 300 * time.Millisecond,
	})
	if !res.TimedOut || res.ExitCode != -1 {
		t.Errorf("got %+v, want a timeout", res)
	}
	if !noneLeft(holder, 2*time.Second) {
		t.Errorf("setsid'd holder survived the timeout: %v", marked(holder))
	}
	if !noneLeft(leader, 2*time.Second) {
		t.Errorf("leader survived the timeout: %v", marked(leader))
	}
}

// TestOverflowKillsEscapedHolder: the stdout reader stops at the cap and
// stderr reaches EOF when the group dies, yet the setsid'd holder of
// stdout alone is found and killed.
func TestOverflowKillsEscapedHolder(t *testing.T) {
	m := marker(t, 300)
	res, _ := run(t, Spec{
		Command:   "setsid sleep " + m + " 2>/dev/null & head -c 100000 /dev/zero; sleep 60",
		StdoutCap: 1000, Grace: 300 * time.Millisecond,
	})
	if res.Overflow != "stdout" {
		t.Errorf("got %+v, want a stdout overflow", res)
	}
	if !noneLeft(m, 2*time.Second) {
		t.Errorf("setsid'd holder survived the overflow: %v", marked(m))
	}
}

// TestCancelKillsEscapedHolder: cancellation tears down a setsid'd holder
// as a timeout does.
func TestCancelKillsEscapedHolder(t *testing.T) {
	m := marker(t, 300)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	res := Run(ctx, Spec{Command: "setsid sleep " + m + " & sleep 60", Grace: 300 * time.Millisecond})
	if !res.Canceled {
		t.Errorf("got %+v, want canceled", res)
	}
	if !noneLeft(m, 2*time.Second) {
		t.Errorf("setsid'd holder survived the cancellation: %v", marked(m))
	}
}

// TestHolderKillLeaksNothing: the scan of /proc and the pidfds it opens
// leave no descriptor and no goroutine behind.
func TestHolderKillLeaksNothing(t *testing.T) {
	m := marker(t, 300)
	spec := Spec{Command: "setsid sleep " + m + " & setsid sleep " + m + " 2>/dev/null & echo hi", Grace: 100 * time.Millisecond}
	run(t, spec) // warm up what the runtime opens once
	goroutines, fds := runtime.NumGoroutine(), openFDs()
	for range 3 {
		run(t, spec)
	}
	if !noneLeft(m, 2*time.Second) {
		t.Errorf("holders survived: %v", marked(m))
	}
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > goroutines && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > goroutines {
		t.Errorf("%d goroutines after the runs, %d before", n, goroutines)
	}
	if n := openFDs(); n != fds {
		t.Errorf("%d open file descriptors after the runs, %d before", n, fds)
	}
}
