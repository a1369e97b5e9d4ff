//go:build unix

package engine_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

// gone waits briefly for a process to disappear and reports whether it did.
func gone(t *testing.T, pidFile string) bool {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("hook did not record its child: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) || zombie(pid) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	return false
}

// zombie reports whether pid has died but not been reaped yet: an orphan
// waits for its reaper (PID 1), which may be slow in containers; it no
// longer runs.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'Z'
}

// TestFaults: hooks that misbehave never crash or hang the engine, the
// decision is the one the failure rules give, and nothing is left running.
func TestFaults(t *testing.T) {
	type fault struct {
		name     string
		body     string // %PID% is replaced by a file the hook writes a child's pid to
		timeout  float64
		failure  runner.Failure
		open     event.Permission // decision fail-open
		bound    time.Duration    // the run must return within this
		leftover bool             // the hook leaves a child we must find dead
	}
	faults := []fault{
		{name: "crash", body: `kill -SEGV $$`, failure: runner.ExitStatus, bound: 5 * time.Second},
		{name: "hang with grandchild holding stdout", body: `sleep 60 & echo $! > %PID%; sleep 60`, timeout: 0.5, failure: runner.Timeout, bound: 5 * time.Second, leftover: true},
		{name: "ignores TERM", body: `trap '' TERM; sleep 60 & echo $! > %PID%; while :; do sleep 1; done`, timeout: 0.3, failure: runner.Timeout, bound: 6 * time.Second, leftover: true},
		{name: "exits but child holds stdout", body: `sleep 60 & echo $! > %PID%; echo '{"permission":"allow"}'`, open: event.Allow, bound: 5 * time.Second, leftover: true},
		{name: "prints 200 MB", body: `head -c 209715200 /dev/zero`, failure: runner.OutputTooLarge, bound: 20 * time.Second},
		{name: "floods stderr", body: `head -c 52428800 /dev/zero >&2; echo '{"permission":"allow"}'`, failure: runner.OutputTooLarge, bound: 20 * time.Second},
		{name: "invalid UTF-8", body: `printf '{"permission":"\377\376"}'`, failure: runner.InvalidOutput, bound: 5 * time.Second},
		{name: "garbage after JSON", body: `echo '{"permission":"allow"} trailing'`, failure: runner.InvalidOutput, bound: 5 * time.Second},
		{name: "wrong types", body: `echo '{"permission":"allow","user_message":42}'`, failure: runner.InvalidOutput, bound: 5 * time.Second},
		{name: "array", body: `echo '[{"permission":"deny"}]'`, failure: runner.InvalidOutput, bound: 5 * time.Second},
		{name: "exit 2 invalid UTF-8 stderr", body: `printf 'no \377 way' >&2; exit 2`, open: event.Deny, bound: 5 * time.Second},
	}
	for _, fl := range faults {
		for _, failClosed := range []bool{false, true} {
			name := fl.name
			if failClosed {
				name += "/fail-closed"
			}
			t.Run(name, func(t *testing.T) {
				f := newFixture(t)
				pidFile := filepath.Join(f.dir, "child.pid")
				h := hk{"command": f.script("h.sh", strings.ReplaceAll(fl.body, "%PID%", pidFile)), "failClosed": failClosed}
				if fl.timeout > 0 {
					h["timeout"] = fl.timeout
				}
				f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: {h}})
				e := f.engine()
				start := time.Now()
				d := run(t, e, event.BeforeShellExecution, `{"command":"ls"}`)
				if took := time.Since(start); took > fl.bound {
					t.Fatalf("run took %v, bound %v", took, fl.bound)
				}
				res := d.Hooks[0].Result
				if res.Failure != fl.failure {
					t.Fatalf("failure %q (%s), want %q", res.Failure, res.Detail, fl.failure)
				}
				want := fl.open
				if failClosed && fl.failure != runner.OK {
					want = event.Deny
				}
				if d.Permission != want {
					t.Fatalf("permission %q, want %q", d.Permission, want)
				}
				for _, s := range []string{d.UserMessage, d.AgentMessage, d.ClientMessage, d.ModelMessage} {
					if !utf8.ValidString(s) {
						t.Fatalf("message is not valid UTF-8: %q", s)
					}
				}
				if len(res.Stdout) > 64<<20 || len(res.Stderr) > 1<<20 {
					t.Fatalf("kept %d bytes of stdout and %d of stderr: caps not applied", len(res.Stdout), len(res.Stderr))
				}
				if fl.leftover && !gone(t, pidFile) {
					t.Fatal("the hook's child is still running")
				}
			})
		}
	}
}

// TestLargePayload: a 50 MB beforeReadFile payload reaches a hook that
// reads it whole, and a hook that never reads stdin is no problem.
func TestLargePayload(t *testing.T) {
	f := newFixture(t)
	f.write(config.User, map[event.Step][]hk{event.BeforeReadFile: {
		{"command": f.script("count.sh", `n=$(wc -c); printf '{"permission":"allow","user_message":"%s"}' $n`)},
		{"command": f.script("deaf.sh", `echo '{"permission":"allow"}'`)},
	}})
	content := strings.Repeat("x", 50<<20)
	payload := `{"file_path":"/big","content":"` + content + `"}`
	d := run(t, f.engine(), event.BeforeReadFile, payload)
	if d.Permission != event.Allow {
		t.Fatalf("permission %q, hooks %v", d.Permission, said(d))
	}
	n, err := strconv.Atoi(strings.Split(d.UserMessage, "\n")[0])
	if err != nil || n < 50<<20 {
		t.Fatalf("the reading hook saw %q bytes", d.UserMessage)
	}
}
