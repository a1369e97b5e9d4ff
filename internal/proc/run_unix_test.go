//go:build unix

package proc

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "code.sh", "#!/bin/sh\nexit \"$1\"\n", 0o755)
	tests := []struct {
		command    string
		wantCode   int
		wantSignal string
		wantDirect bool
	}{
		{"exit 0", 0, "", false},
		{"exit 1", 1, "", false},
		{"exit 2", 2, "", false},
		{"exit 137", 137, "", false},
		{"./code.sh 0", 0, "", true},
		{"./code.sh 1", 1, "", true},
		{"./code.sh 2", 2, "", true},
		{"./code.sh 137", 137, "", true},
		{"kill -KILL $$", -1, "killed", false},
		{"kill -TERM $$", -1, "terminated", false},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			res, _ := run(t, Spec{Command: tt.command, Dir: dir})
			if res.ExitCode != tt.wantCode || res.Signal != tt.wantSignal || res.Direct != tt.wantDirect {
				t.Errorf("got code %d signal %q direct %v, want %d %q %v (stderr %q)",
					res.ExitCode, res.Signal, res.Direct, tt.wantCode, tt.wantSignal, tt.wantDirect, res.Stderr)
			}
			if res.StartErr != nil || res.TimedOut || res.Canceled || res.Overflow != "" {
				t.Errorf("unexpected failure: %+v", res)
			}
			if res.Duration <= 0 {
				t.Errorf("Duration = %v", res.Duration)
			}
		})
	}
}

func TestOutputCapture(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "both.sh", "#!/bin/sh\nprintf 'to stdout'\nprintf 'to stderr' >&2\n", 0o755)
	for _, command := range []string{"./both.sh", "printf 'to stdout'; printf 'to stderr' >&2"} {
		res, _ := run(t, Spec{Command: command, Dir: dir})
		if string(res.Stdout) != "to stdout" || string(res.Stderr) != "to stderr" {
			t.Errorf("%s: stdout %q stderr %q", command, res.Stdout, res.Stderr)
		}
	}
}

func TestInvalidUTF8Preserved(t *testing.T) {
	want := []byte{0xff, 0xfe, 0x00, 0xc0, 'a', 0x80, '\n'}
	res, _ := run(t, Spec{Command: `printf '\377\376\000\300a\200\n'; printf '\377\000' >&2`})
	if !bytes.Equal(res.Stdout, want) {
		t.Errorf("stdout % x, want % x", res.Stdout, want)
	}
	if !bytes.Equal(res.Stderr, []byte{0xff, 0x00}) {
		t.Errorf("stderr % x", res.Stderr)
	}
}

func TestDirAndEnv(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOOK_VAR=from the caller", "PWD=/somewhere/else")
	tests := []struct {
		command    string
		want       string
		wantDirect bool
	}{
		{"pwd", physical(t, real) + "\n", false},
		{"/bin/pwd", physical(t, real) + "\n", true},
		{"printenv HOOK_VAR", "from the caller\n", true},
		{`echo "$HOOK_VAR"`, "from the caller\n", false},
		// A direct exec exports PWD as sh would have.
		{"printenv PWD", physical(t, real) + "\n", true},
		{"printenv PWD;", physical(t, real) + "\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			res, _ := run(t, Spec{Command: tt.command, Dir: link, Env: env})
			if string(res.Stdout) != tt.want || res.Direct != tt.wantDirect {
				t.Errorf("stdout %q direct %v, want %q %v (stderr %q)", res.Stdout, res.Direct, tt.want, tt.wantDirect, res.Stderr)
			}
		})
	}
}

// TestPWDKeptWhenValid: a PWD that already names the directory (a logical
// path through a symlink) is passed on unchanged, as sh does.
func TestPWDKeptWhenValid(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PWD="+link)
	for _, command := range []string{"printenv PWD", "printenv PWD;"} {
		res, _ := run(t, Spec{Command: command, Dir: link, Env: env})
		if string(res.Stdout) != link+"\n" {
			t.Errorf("%s: PWD %q, want %q", command, res.Stdout, link)
		}
	}
}

func TestDirectOrShell(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(t.TempDir(), "bin")
	writeFile(t, dir, "x.sh", "#!/bin/sh\necho \"x $*\"\n", 0o755)
	writeFile(t, dir, "sub/x.sh", "#!/bin/sh\necho \"sub $*\"\n", 0o755)
	writeFile(t, dir, "noshebang.sh", "echo \"no shebang $*\"\n", 0o755)
	writeFile(t, dir, "noexec.sh", "#!/bin/sh\necho never\n", 0o644)
	writeFile(t, bin, "mytool", "#!/bin/sh\necho \"mytool $*\"\n", 0o755)
	withBin := []string{"PATH=" + bin + ":/usr/bin:/bin"}
	emptyPath := []string{"PATH=" + t.TempDir()}

	tests := []struct {
		name       string
		command    string
		env        []string
		wantOut    string
		wantCode   int
		wantDirect bool
	}{
		{"relative script", "./x.sh a b", nil, "x a b\n", 0, true},
		{"script in a sub folder", "sub/x.sh c", nil, "sub c\n", 0, true},
		{"absolute path", filepath.Join(dir, "x.sh"), nil, "x \n", 0, true},
		{"found in the hook's PATH", "mytool --flag=1", withBin, "mytool --flag=1\n", 0, true},
		{"not in the caller's PATH", "mytool", nil, "", 127, false},
		{"script without shebang", "./noshebang.sh q", nil, "no shebang q\n", 0, false},
		{"not executable", "./noexec.sh", nil, "", 126, false},
		{"missing script", "./missing.sh", nil, "", 127, false},
		{"missing command", "no-such-command-xyz", nil, "", 127, false},
		{"PATH without the command", "cat", emptyPath, "", 127, false},
		{"builtin", "echo hi", nil, "hi\n", 0, false},
		{"shell syntax", "./x.sh | cat", nil, "x \n", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := run(t, Spec{Command: tt.command, Dir: dir, Env: tt.env})
			if string(res.Stdout) != tt.wantOut || res.ExitCode != tt.wantCode || res.Direct != tt.wantDirect {
				t.Errorf("stdout %q code %d direct %v, want %q %d %v (stderr %q)",
					res.Stdout, res.ExitCode, res.Direct, tt.wantOut, tt.wantCode, tt.wantDirect, res.Stderr)
			}
			if res.StartErr != nil {
				t.Errorf("StartErr %v", res.StartErr)
			}
		})
	}
}

// TestFailureMessagesAreSh: when direct exec cannot run the command, the
// hook sees exactly what sh would have said.
func TestFailureMessagesAreSh(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "noexec.sh", "#!/bin/sh\n", 0o644)
	env := []string{"PATH=" + t.TempDir()}
	for _, command := range []string{"no-such-command-xyz arg", "./missing.sh", "./noexec.sh", "cat"} {
		cmd := exec.Command("/bin/sh", "-c", command)
		cmd.Dir, cmd.Env = dir, env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("sh -c %q: %v", command, err)
		}
		res, _ := run(t, Spec{Command: command, Dir: dir, Env: env})
		if res.ExitCode != ee.ExitCode() || !bytes.Equal(res.Stderr, stderr.Bytes()) {
			t.Errorf("%s: got %d %q, sh gives %d %q", command, res.ExitCode, res.Stderr, ee.ExitCode(), stderr.Bytes())
		}
		if len(res.Stderr) == 0 {
			t.Errorf("%s: no message on stderr", command)
		}
	}
}

// TestRelativeDir: a relative Dir and a relative script inside it are both
// resolved as sh would, from the caller's working directory.
func TestRelativeDir(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "hooks/x.sh", "#!/bin/sh\npwd\n", 0o755)
	t.Chdir(root)
	res, _ := run(t, Spec{Command: "./x.sh", Dir: "hooks"})
	if want := physical(t, filepath.Join(root, "hooks")) + "\n"; string(res.Stdout) != want || !res.Direct {
		t.Errorf("stdout %q direct %v, want %q direct (stderr %q)", res.Stdout, res.Direct, want, res.Stderr)
	}
}

func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "file", "", 0o644)
	for _, bad := range []string{filepath.Join(dir, "missing"), file} {
		res, _ := run(t, Spec{Command: "true", Dir: bad})
		if res.StartErr == nil || res.ExitCode != -1 || res.Direct {
			t.Errorf("Dir %s: %+v, want a StartErr and exit -1", bad, res)
		}
	}
}

// TestLargeStdinEchoed: 50 MB through cat, written while the output is read.
func TestLargeStdinEchoed(t *testing.T) {
	payload := make([]byte, 50<<20)
	if _, err := rand.Read(payload); err != nil {
		t.Fatal(err)
	}
	res, _ := run(t, Spec{Command: "cat", Stdin: payload, Timeout: time.Minute})
	if res.ExitCode != 0 || !res.Direct || res.Overflow != "" {
		t.Fatalf("code %d direct %v overflow %q stderr %q", res.ExitCode, res.Direct, res.Overflow, res.Stderr)
	}
	if sha256.Sum256(res.Stdout) != sha256.Sum256(payload) {
		t.Errorf("echoed %d bytes, not identical to the %d sent", len(res.Stdout), len(payload))
	}
}

// TestStdinNeverRead: hooks that ignore a 50 MB stdin and exit do not block
// us, and the broken pipe does not kill the test binary with SIGPIPE (if it
// did, this test would never report).
func TestStdinNeverRead(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "ignore.sh", "#!/bin/sh\necho ignored\n", 0o755)
	payload := bytes.Repeat([]byte("x"), 50<<20)
	for _, command := range []string{"./ignore.sh", "sleep 0.2", "exec 0<&-; sleep 0.2; echo closed"} {
		res, elapsed := run(t, Spec{Command: command, Dir: dir, Stdin: payload, Timeout: time.Minute})
		if res.ExitCode != 0 || res.Signal != "" {
			t.Errorf("%s: code %d signal %q stderr %q", command, res.ExitCode, res.Signal, res.Stderr)
		}
		if elapsed > 5*time.Second {
			t.Errorf("%s: took %v", command, elapsed)
		}
	}
}

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

func TestOutputCap(t *testing.T) {
	const total = 200 << 20
	dir := t.TempDir()
	tests := []struct {
		name         string
		command      string
		spec         Spec
		wantOverflow string
		wantLen      int
	}{
		{"stdout, direct", "head -c 209715200 /dev/zero", Spec{StdoutCap: 1 << 20}, "stdout", 1 << 20},
		{"stdout, shell", "head -c 209715200 /dev/zero; echo done > marker", Spec{StdoutCap: 1 << 20}, "stdout", 1 << 20},
		{"stdout, default cap", "head -c 209715200 /dev/zero", Spec{}, "stdout", DefaultStdoutCap},
		{"stderr, default cap", "head -c 209715200 /dev/zero >&2; echo done > marker", Spec{}, "stderr", DefaultStderrCap},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.spec
			s.Command, s.Dir = tt.command, dir
			res, elapsed := run(t, s)
			got := res.Stdout
			if tt.wantOverflow == "stderr" {
				got = res.Stderr
			}
			if res.Overflow != tt.wantOverflow || len(got) != tt.wantLen || res.ExitCode != -1 {
				t.Errorf("overflow %q, kept %d bytes, code %d; want %q, %d, -1", res.Overflow, len(got), res.ExitCode, tt.wantOverflow, tt.wantLen)
			}
			if bytes.IndexFunc(got, func(r rune) bool { return r != 0 }) >= 0 {
				t.Error("kept bytes differ from what was written")
			}
			if _, err := os.Stat(filepath.Join(dir, "marker")); err == nil {
				t.Errorf("the hook ran to its end (%d bytes) instead of being stopped", total)
			}
			if elapsed > 10*time.Second {
				t.Errorf("took %v", elapsed)
			}
		})
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
	if pid, err := os.ReadFile(filepath.Join(dir, "gc.pid")); err == nil {
		var n int
		for _, c := range strings.TrimSpace(string(pid)) {
			n = n*10 + int(c-'0')
		}
		gone(n, 2*time.Second)
	}
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

// openFDs counts this process's open descriptors, or -1 where /proc is absent.
func openFDs() int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(entries)
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
	if elapsed > 2*time.Second {
		t.Errorf("took %v", elapsed)
	}
	if !gone(pid, 2*time.Second) {
		t.Errorf("background job %d survived the timeout", pid)
	}
}
