//go:build unix

package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/agenthooks/agenthooks/internal/needs"
	"github.com/agenthooks/agenthooks/internal/proc"
)

// The exec tests drive a real agenthooks binary in real processes: on a
// pseudo-terminal when the case is about terminals (the question, raw
// input, signals from keys), through pipes otherwise. Hooks are shell
// scripts in a user hooks.json under a temporary HOME; the after-hooks
// write their stdin to files, which the tests read back.

// execTestTimeout bounds every wait, so a broken exec fails a test rather
// than hanging it.
const execTestTimeout = 20 * time.Second

// execGate is the beforeShellExecution hook of the tests: it denies
// commands that mention deny-me, asks about ask-me, and has no opinion on
// anything else.
const execGate = `#!/bin/sh
in=$(cat)
case "$in" in
*deny-me*) echo '{"permission":"deny","user_message":"denied by the test hook","agent_message":"try something else"}' ;;
*ask-me*) echo '{"permission":"ask","user_message":"the test hook wants a yes"}' ;;
esac
`

// execWorld is one test's machine: the binary, a HOME with the hooks, and
// a working directory.
type execWorld struct {
	t   testing.TB
	bin string
	dir string // the working directory of the command
	log string // where the after-hooks write what they got
	env []string
}

func newExecWorld(t testing.TB, bin string) *execWorld {
	t.Helper()
	root := t.TempDir()
	w := &execWorld{t: t, bin: bin, dir: filepath.Join(root, "work"), log: filepath.Join(root, "log")}
	home := filepath.Join(root, "home")
	for _, d := range []string{w.dir, w.log, filepath.Join(home, ".cursor")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gate := filepath.Join(home, ".cursor", "gate.sh")
	if err := os.WriteFile(gate, []byte(execGate), 0o755); err != nil {
		t.Fatal(err)
	}
	save := func(name string) string { return "cat > " + filepath.Join(w.log, name) }
	hooks, err := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{
		"beforeShellExecution": []any{map[string]string{"command": "./gate.sh"}},
		"afterShellExecution":  []any{map[string]string{"command": save("afterShellExecution.json")}},
		"postToolUse":          []any{map[string]string{"command": save("postToolUse.json")}},
		"postToolUseFailure":   []any{map[string]string{"command": save("postToolUseFailure.json")}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), hooks, 0o644); err != nil {
		t.Fatal(err)
	}
	w.env = append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(root, "xdg"),
		"XDG_STATE_HOME="+filepath.Join(root, "state"),
		"AGENTHOOKS_STATE_DIR="+filepath.Join(root, "state"),
		"AGENTHOOKS_CONFIG_DIR="+filepath.Join(root, "config"),
		"AGENTHOOKS_ENTERPRISE_CONFIG="+filepath.Join(root, "etc", "hooks.json"),
		"AGENTHOOKS_CONVERSATION_ID=",
	)
	return w
}

// command returns `agenthooks exec ARGS...` run in the working directory.
// It has no controlling terminal unless the caller gives it one.
func (w *execWorld) command(args ...string) *exec.Cmd {
	cmd := exec.Command(w.bin, append([]string{"exec"}, args...)...)
	cmd.Dir = w.dir
	cmd.Env = w.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return cmd
}

// hookInput reads what an after-hook got, failing when it did not run.
func (w *execWorld) hookInput(step string) map[string]any {
	w.t.Helper()
	data, err := os.ReadFile(filepath.Join(w.log, step+".json"))
	if err != nil {
		w.t.Fatalf("%s hook did not run: %v", step, err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		w.t.Fatalf("%s hook got %q: %v", step, data, err)
	}
	return m
}

func (w *execWorld) hookRan(step string) bool {
	_, err := os.Stat(filepath.Join(w.log, step+".json"))
	return err == nil
}

func (w *execWorld) marker() string { return filepath.Join(w.dir, "marker") }

func (w *execWorld) markerExists() bool {
	_, err := os.Stat(w.marker())
	return err == nil
}

// execExitCode waits for cmd and returns its exit code.
func execExitCode(t testing.TB, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("wait: %v", err)
		}
		return cmd.ProcessState.ExitCode()
	case <-time.After(execTestTimeout):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("agenthooks exec did not finish within %v", execTestTimeout)
		return -1
	}
}

// execRunPipes runs agenthooks exec with pipes only and returns exit code,
// stdout and stderr.
func (w *execWorld) runPipes(args ...string) (int, []byte, string) {
	w.t.Helper()
	cmd := w.command(args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	code := execExitCode(w.t, cmd)
	return code, stdout.Bytes(), stderr.String()
}

// execScreen is the far side of a pseudo-terminal: what the program shows
// and a keyboard.
type execScreen struct {
	t      *testing.T
	master *os.File
	tty    *os.File // closed; its name is the terminal's
	mu     sync.Mutex
	buf    bytes.Buffer
	done   chan struct{}
}

// startOnPTY starts cmd with a new pseudo-terminal as its controlling
// terminal and as stdin and stdout; stderr too, unless cmd has one.
func startOnPTY(t *testing.T, cmd *exec.Cmd) *execScreen {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 24, Cols: 80}); err != nil {
		t.Fatal(err)
	}
	cmd.Stdin, cmd.Stdout = tty, tty
	if cmd.Stderr == nil {
		cmd.Stderr = tty
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	err = cmd.Start()
	_ = tty.Close()
	if err != nil {
		_ = master.Close()
		t.Fatal(err)
	}
	s := &execScreen{t: t, master: master, tty: tty, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			s.mu.Lock()
			s.buf.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = master.Close()
		<-s.done
	})
	return s
}

func (s *execScreen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor waits until the screen shows want.
func (s *execScreen) waitFor(want string) {
	s.t.Helper()
	deadline := time.Now().Add(execTestTimeout)
	for !strings.Contains(s.text(), want) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the terminal never showed %q; it shows:\n%s", want, s.text())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *execScreen) typeIn(keys string) {
	s.t.Helper()
	if _, err := s.master.Write([]byte(keys)); err != nil {
		s.t.Fatal(err)
	}
}

// finish waits for the program and for the end of its output.
func (s *execScreen) finish(cmd *exec.Cmd) int {
	s.t.Helper()
	code := execExitCode(s.t, cmd)
	select {
	case <-s.done:
	case <-time.After(execTestTimeout):
		s.t.Fatal("the terminal was never released")
	}
	return code
}

func TestExec(t *testing.T) {
	needs.Short(t, "the command line's tests that build the agenthooks binary (signals, terminals, version stamps)")
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build agenthooks with")
	}
	bin := filepath.Join(t.TempDir(), "agenthooks")
	build := exec.Command(goCmd, "build", "-o", bin, "../../cmd/agenthooks-engine")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	t.Run("DeniedOnTerminal", func(t *testing.T) {
		w := newExecWorld(t, bin)
		cmd := w.command("-c", "echo deny-me; touch "+w.marker())
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		s := startOnPTY(t, cmd)
		if code := s.finish(cmd); code != ExitExecDenied {
			t.Errorf("exit code %d, want %d", code, ExitExecDenied)
		}
		if want := "Command execution was blocked by a hook: denied by the test hook"; !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr %q lacks %q", stderr.String(), want)
		}
		if w.markerExists() {
			t.Error("the denied command ran")
		}
		if w.hookRan("afterShellExecution") || w.hookRan("postToolUse") {
			t.Error("after-hooks ran for a command that did not run")
		}
		in := w.hookInput("postToolUseFailure")
		if in["failure_type"] != "permission_denied" || !strings.Contains(in["error_message"].(string), "denied by the test hook") {
			t.Errorf("postToolUseFailure got %v", in)
		}
	})

	t.Run("AllowedOnTerminal", func(t *testing.T) {
		w := newExecWorld(t, bin)
		// Interactive: the command reads what is typed, through exec's
		// relay into its own terminal, and sees terminals everywhere.
		script := `[ -t 0 ] && [ -t 1 ] && echo tty-ok; echo "on $(tty)"; printf 'name? '; read name; echo "hello $name"; exit 7`
		cmd := w.command("-c", script)
		s := startOnPTY(t, cmd)
		s.waitFor("name? ")
		s.typeIn("world\r")
		if code := s.finish(cmd); code != 7 {
			t.Errorf("exit code %d, want 7; screen:\n%s", code, s.text())
		}
		screen := s.text()
		for _, want := range []string{"tty-ok", "hello world"} {
			if !strings.Contains(screen, want) {
				t.Errorf("screen lacks %q:\n%s", want, screen)
			}
		}
		// The command has a terminal of its own, not ours handed over.
		if ours := s.tty.Name(); strings.Contains(screen, "on "+ours) {
			t.Errorf("the command ran on our terminal %s, not a pseudo-terminal of its own", ours)
		}
		// Ours is raw while it runs: only its terminal echoes what is typed.
		if n := strings.Count(screen, "world"); n != 2 { // the echo, and "hello world"
			t.Errorf("%q shows %d times, want 2 (typed keys echoed once):\n%s", "world", n, screen)
		}
		out := w.hookInput("afterShellExecution")
		if o, _ := out["output"].(string); !strings.Contains(o, "tty-ok") || !strings.Contains(o, "hello world") {
			t.Errorf("afterShellExecution output %q lacks the command's output", out["output"])
		}
		if out["command"] != script {
			t.Errorf("afterShellExecution command %q, want %q", out["command"], script)
		}
		fail := w.hookInput("postToolUseFailure")
		if fail["failure_type"] != "error" || fail["error_message"] != "Command exited with code 7" {
			t.Errorf("postToolUseFailure got %v", fail)
		}
	})

	t.Run("InterruptKeyOnTerminal", func(t *testing.T) {
		w := newExecWorld(t, bin)
		// ^C typed on the terminal reaches the command through its own
		// terminal, which exec keeps in raw mode.
		cmd := w.command("-c", "echo started; exec sleep 30")
		s := startOnPTY(t, cmd)
		s.waitFor("started")
		s.typeIn("\x03")
		if code := s.finish(cmd); code != 128+int(syscall.SIGINT) {
			t.Errorf("exit code %d, want %d", code, 128+int(syscall.SIGINT))
		}
		fail := w.hookInput("postToolUseFailure")
		if fail["error_message"] != "Command was killed by SIGINT" || fail["is_interrupt"] != true {
			t.Errorf("postToolUseFailure got %v", fail)
		}
	})

	t.Run("BackgroundOnTerminal", func(t *testing.T) {
		w := newExecWorld(t, bin)
		// A job-control shell puts exec in a background group of the
		// terminal: exec must leave the keyboard alone (taking it would
		// stop exec with SIGTTOU) and still run and relay the command.
		script := `set -m; '` + bin + `' exec -c 'echo bg-ok; exit 5' & wait $!; echo "status $?"`
		cmd := exec.Command("/bin/sh", "-c", script)
		cmd.Dir, cmd.Env = w.dir, w.env
		s := startOnPTY(t, cmd)
		if code := s.finish(cmd); code != 0 {
			t.Errorf("sh exit code %d", code)
		}
		if screen := s.text(); !strings.Contains(screen, "bg-ok") || !strings.Contains(screen, "status 5") {
			t.Errorf("screen:\n%s", screen)
		}
	})

	for _, answer := range []string{"y", "n"} {
		t.Run("AskAnswered_"+answer, func(t *testing.T) {
			w := newExecWorld(t, bin)
			cmd := w.command("-c", "echo ask-me; touch "+w.marker())
			s := startOnPTY(t, cmd)
			s.waitFor("Run it? [y/N] ")
			if !strings.Contains(s.text(), "the test hook wants a yes") {
				t.Errorf("the question does not show the hook's message:\n%s", s.text())
			}
			s.typeIn(answer + "\r")
			code := s.finish(cmd)
			if answer == "y" {
				if code != 0 || !w.markerExists() {
					t.Errorf("answered y: exit code %d, ran %v; screen:\n%s", code, w.markerExists(), s.text())
				}
				w.hookInput("postToolUse")
				return
			}
			if code != ExitExecDenied || w.markerExists() {
				t.Errorf("answered n: exit code %d, ran %v", code, w.markerExists())
			}
			if in := w.hookInput("postToolUseFailure"); in["failure_type"] != "permission_denied" {
				t.Errorf("postToolUseFailure got %v", in)
			}
		})
	}

	t.Run("AskWithoutTerminal", func(t *testing.T) {
		w := newExecWorld(t, bin)
		code, _, stderr := w.runPipes("-c", "echo ask-me; touch "+w.marker())
		if code != ExitExecDenied || w.markerExists() {
			t.Errorf("no terminal: exit code %d, ran %v", code, w.markerExists())
		}
		if !strings.Contains(stderr, "no terminal") || !strings.Contains(stderr, "the test hook wants a yes") {
			t.Errorf("stderr %q does not say why", stderr)
		}
		code, _, stderr = w.runPipes("--ask=allow", "-c", "echo ask-me; touch "+w.marker())
		if code != 0 || !w.markerExists() {
			t.Errorf("--ask=allow: exit code %d, ran %v, stderr %q", code, w.markerExists(), stderr)
		}
	})

	t.Run("BinaryOutput", func(t *testing.T) {
		w := newExecWorld(t, bin)
		all := make([]byte, 256)
		for i := range all {
			all[i] = byte(i)
		}
		src := filepath.Join(w.dir, "bytes")
		if err := os.WriteFile(src, all, 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := w.runPipes("cat", src)
		if code != 0 || !bytes.Equal(stdout, all) {
			t.Fatalf("exit code %d, stdout %q (want the 256 byte values), stderr %q", code, stdout, stderr)
		}
		out, _ := w.hookInput("afterShellExecution")["output"].(string)
		// JSON carries the ASCII half exactly; the rest is not UTF-8 and
		// arrives as replacement characters.
		if !strings.HasPrefix(out, string(all[:128])) {
			t.Errorf("afterShellExecution output %q does not start with bytes 0..127", out)
		}
		var result struct {
			ExitCode *int   `json:"exitCode"`
			Stdout   string `json:"stdout"`
		}
		toolOutput, _ := w.hookInput("postToolUse")["tool_output"].(string)
		if err := json.Unmarshal([]byte(toolOutput), &result); err != nil || result.ExitCode == nil || *result.ExitCode != 0 || result.Stdout != out {
			t.Errorf("postToolUse tool_output %q", toolOutput)
		}
	})

	t.Run("LargeOutputCapped", func(t *testing.T) {
		w := newExecWorld(t, bin)
		const size = 3 << 20
		code, stdout, _ := w.runPipes("-c", `i=0; while [ $i -lt 3072 ]; do printf '%01023d\n' $i; i=$((i+1)); done`)
		if code != 0 || len(stdout) != size {
			t.Fatalf("exit code %d, %d bytes passed through, want %d", code, len(stdout), size)
		}
		out, _ := w.hookInput("afterShellExecution")["output"].(string)
		if len(out) > proc.CaptureLimit+100 || !strings.Contains(out, "[agenthooks: 2097152 bytes of output left out]") {
			t.Errorf("captured %d bytes, not capped as expected", len(out))
		}
		if !strings.HasPrefix(out, string(stdout[:1024])) || !strings.HasSuffix(out, string(stdout[size-1024:])) {
			t.Error("the capture lost the beginning or the end of the output")
		}
	})

	t.Run("FailureAndSignals", func(t *testing.T) {
		w := newExecWorld(t, bin)
		code, _, _ := w.runPipes("-c", "exit 3")
		if code != 3 {
			t.Errorf("exit code %d, want 3", code)
		}
		if in := w.hookInput("postToolUseFailure"); in["failure_type"] != "error" || in["error_message"] != "Command exited with code 3" || in["is_interrupt"] != false {
			t.Errorf("postToolUseFailure got %v", in)
		}
		code, _, _ = w.runPipes("-c", "kill -KILL $$")
		if code != 128+int(syscall.SIGKILL) {
			t.Errorf("killed command: exit code %d, want %d", code, 128+int(syscall.SIGKILL))
		}
		code, _, stderr := w.runPipes("no-such-program-here", "x")
		if code != ExitExecNotFound || !strings.Contains(stderr, "no-such-program-here: command not found") {
			t.Errorf("missing program: exit code %d, stderr %q", code, stderr)
		}
	})

	t.Run("SignalForwardedNothingOutlives", func(t *testing.T) {
		w := newExecWorld(t, bin)
		pidFile := filepath.Join(w.dir, "bg.pid")
		// A background job that ignores SIGTERM, and a foreground that
		// exits on it: exec passes SIGTERM to the whole group, and kills
		// what is left once the command is gone.
		script := `(trap '' TERM; sleep 60) & echo $! > ` + pidFile + `; trap 'echo got-term; exit 9' TERM; echo ready; while :; do sleep 0.05; done`
		cmd := w.command("-c", script)
		// A pipe of our own, which Wait does not close under the reader.
		stdout, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer stdout.Close()
		cmd.Stdout = pw
		err = cmd.Start()
		_ = pw.Close()
		if err != nil {
			t.Fatal(err)
		}
		// "ready" comes once the trap is set.
		seen := make(chan string, 1)
		ready := make(chan struct{})
		go func() {
			var all strings.Builder
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				all.WriteString(sc.Text() + "\n")
				if sc.Text() == "ready" {
					close(ready)
				}
			}
			seen <- all.String()
		}()
		select {
		case <-ready:
		case <-time.After(execTestTimeout):
			_ = cmd.Process.Kill()
			t.Fatal("the command never started")
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		code := execExitCode(t, cmd)
		out := <-seen
		if code != 9 || !strings.Contains(out, "got-term") {
			t.Errorf("exit code %d, output %q; want 9 and got-term", code, out)
		}
		if fail := w.hookInput("postToolUseFailure"); fail["is_interrupt"] != true {
			t.Errorf("postToolUseFailure got %v", fail)
		}
		data, _ := os.ReadFile(pidFile)
		execAssertGone(t, strings.TrimSpace(string(data)))
	})
}

// execAssertGone fails when process pid is still alive (a zombie nobody
// reaped counts as gone). It reads /proc, so it checks only where there is
// one.
func execAssertGone(t *testing.T, pid string) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return
	}
	deadline := time.Now().Add(execTestTimeout)
	for {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			return
		}
		// The state follows the parenthesised command name.
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && len(stat) > i+2 && stat[i+2] == 'Z' {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %s outlived agenthooks exec", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// BenchmarkExecProcess measures what gating costs a command: a whole
// `agenthooks exec true` process with one allowing beforeShellExecution
// hook and the after-hooks, against the bare `sh -c true` it wraps.
func BenchmarkExecProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "agenthooks")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/agenthooks-engine").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	w := newExecWorld(b, bin)
	b.Run("bare", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("/bin/sh", "-c", "true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("exec", func(b *testing.B) {
		for b.Loop() {
			cmd := w.command("-c", "true")
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
