//go:build unix

package client_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/internal/filelock"
	"github.com/agenthooks/agenthooks/internal/wire"
)

const denyPush = `{"version":1,"hooks":{"beforeShellExecution":[{"command":"echo '{\"permission\":\"deny\",\"user_message\":\"no push\"}'","matcher":"git push"}]}}`

const pushPayload = `{"command":"git push","cwd":"/"}`

const claudePush = `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"},"cwd":"/"}`

// The engine and a process of its own give the same answer, byte for
// byte, and the engine really served them.
func TestSameAnswerWithAndWithoutEngine(t *testing.T) {
	w := newWorld(t)
	w.userHooks(denyPush)
	policy := filepath.Join(w.ws, "p.yaml")
	os.WriteFile(policy, []byte(gitPolicy), 0o644)
	cases := []struct {
		name, stdin string
		args        []string
	}{
		{"cursor deny", pushPayload, []string{"run", "beforeShellExecution"}},
		{"cursor allow", `{"command":"ls","cwd":"/"}`, []string{"run", "beforeShellExecution"}},
		{"claude deny", claudePush, []string{"run", "--from", "claude"}},
		{"unreadable payload", `{"command":`, []string{"run", "--from", "claude"}},
		{"policy", `{"hook_event_name":"beforeShellExecution","command":"git push origin main","cwd":"/"}`, []string{"policy", "p.yaml"}},
		{"bad step", `{}`, []string{"run", "nosuchstep"}},
	}
	st := w.startEngine()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			off := w.run(c.stdin, []string{"AGENTHOOKS_ENGINE=off"}, c.args...)
			on := w.run(c.stdin, nil, c.args...)
			if on != off {
				t.Errorf("engine: %+v\nown process: %+v", on, off)
			}
			if strings.Contains(c.name, "deny") || c.name == "policy" {
				if !strings.Contains(on.out, "deny") {
					t.Errorf("no deny: %+v", on)
				}
			}
		})
	}
	if got := w.status(); got.Engine == nil {
		t.Errorf("the engine (pid %d) is gone: %s", st.PID, got.Error)
	} else if got.Engine.PID != st.PID || got.Engine.Steps < int64(len(cases)) {
		t.Errorf("the engine (pid %d) served %d steps, want %d by pid %d", got.Engine.PID, got.Engine.Steps, len(cases), st.PID)
	}
	if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
		t.Errorf("deny lost: %+v", r)
	}
}

// A hook inherits its caller's environment, not the engine's or another
// caller's.
func TestHookInheritsCallerEnv(t *testing.T) {
	w := newWorld(t)
	w.userHooks(`{"version":1,"hooks":{"beforeShellExecution":[{"command":"echo \"{\\\"permission\\\":\\\"deny\\\",\\\"user_message\\\":\\\"$WHO\\\"}\""}]}}`)
	w.startEngine()
	for _, who := range []string{"alice", "bob"} {
		r := w.run(`{"command":"ls","cwd":"/"}`, []string{"WHO=" + who, "AGENTHOOKS_TEAM_TOKEN=secret"}, "run", "beforeShellExecution")
		if !strings.Contains(r.out, `"user_message":"`+who+`"`) {
			t.Errorf("WHO=%s: %+v", who, r)
		}
	}
	// The team token never reaches a hook, from the engine either.
	w.userHooks(`{"version":1,"hooks":{"beforeShellExecution":[{"command":"echo \"{\\\"permission\\\":\\\"deny\\\",\\\"user_message\\\":\\\"[$AGENTHOOKS_TEAM_TOKEN]\\\"}\""}]}}`)
	r := w.run(`{"command":"ls","cwd":"/"}`, []string{"AGENTHOOKS_TEAM_TOKEN=secret"}, "run", "beforeShellExecution")
	if !strings.Contains(r.out, `"user_message":"[]"`) {
		t.Errorf("the team token reached a hook: %+v", r)
	}
}

// An edit to a hooks file counts from the very next step.
func TestEditCountsAtOnce(t *testing.T) {
	w := newWorld(t)
	w.userHooks(denyPush)
	w.startEngine()
	for i := range 3 {
		if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, "deny") {
			t.Fatalf("round %d: deny hook did not apply: %+v", i, r)
		}
		w.userHooks(`{"version":1,"hooks":{}}`)
		if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); strings.TrimSpace(r.out) != "{}" {
			t.Fatalf("round %d: removed hook still applies: %+v", i, r)
		}
		w.userHooks(denyPush)
	}
}

// The engine dies while a hook runs: the client runs the step itself and
// still denies.
func TestEngineKilledMidRequest(t *testing.T) {
	w := newWorld(t)
	marker := filepath.Join(w.ws, "started")
	w.userHooks(fmt.Sprintf(`{"version":1,"hooks":{"beforeShellExecution":[{"command":"touch %s; sleep 1; echo '{\"permission\":\"deny\"}'"}]}}`, marker))
	st := w.startEngine()
	os.Remove(marker)
	done := make(chan result, 1)
	go func() { done <- w.run(pushPayload, nil, "run", "beforeShellExecution") }()
	waitFile(t, marker)
	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if !strings.Contains(r.out, `"deny"`) || r.code != 0 {
		t.Errorf("after the engine died: %+v", r)
	}
}

// A stopped (hung) engine: the client gives up waiting and answers itself.
func TestHungEngine(t *testing.T) {
	w := newWorld(t)
	w.userHooks(denyPush)
	st := w.startEngine()
	syscall.Kill(st.PID, syscall.SIGSTOP)
	defer syscall.Kill(st.PID, syscall.SIGCONT)
	start := time.Now()
	r := w.run(pushPayload, nil, "run", "beforeShellExecution")
	if !strings.Contains(r.out, `"deny"`) {
		t.Errorf("with the engine stopped: %+v", r)
	}
	t.Logf("answered in %s with the engine stopped", time.Since(start).Round(time.Millisecond))
}

// A socket file with nobody behind it: the step runs here, and a new
// engine takes the socket.
func TestStaleSocket(t *testing.T) {
	w := newWorld(t)
	w.userHooks(denyPush)
	sock := w.socket()
	os.MkdirAll(filepath.Dir(sock), 0o700)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close() // the file stays; nobody listens
	if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
		t.Errorf("with a stale socket: %+v", r)
	}
	w.waitEngine()
	if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
		t.Errorf("after the new engine started: %+v", r)
	}
}

// A socket planted by another user is never dialled, and a folder that
// others may enter is refused.
func TestPlantedSocket(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to plant a socket owned by another user")
	}
	w := newWorld(t)
	w.userHooks(denyPush)
	sock := w.socket()
	os.MkdirAll(filepath.Dir(sock), 0o700)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	os.Chown(sock, 65534, 65534)
	var dialled sync.WaitGroup
	accepted := make(chan struct{}, 8)
	dialled.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	})
	if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
		t.Errorf("with a planted socket: %+v", r)
	}
	select {
	case <-accepted:
		t.Error("the client dialled a socket owned by another user")
	default:
	}
	// A folder others may enter is not used at all.
	os.Chown(sock, 0, 0)
	os.Chmod(filepath.Dir(sock), 0o777)
	if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
		t.Errorf("with an open folder: %+v", r)
	}
	select {
	case <-accepted:
		t.Error("the client dialled a socket in a folder others may enter")
	default:
	}
	ln.Close()
	dialled.Wait()
}

// The engine refuses a process of another user, without a word.
func TestEngineRefusesOtherUsers(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to connect as another user")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("needs setpriv")
	}
	w := newWorld(t)
	w.userHooks(denyPush)
	w.startEngine()
	sock := w.socket()
	// Let the other user reach the socket, as a careless chmod would.
	for d := filepath.Dir(sock); d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o711)
	}
	os.Chmod(sock, 0o666)
	defer os.Chmod(filepath.Dir(sock), 0o700)
	// From the socket's folder: its whole path may be longer than a
	// socket address holds.
	py := `import os,socket,sys,struct
os.chdir(os.path.dirname(sys.argv[1]))
s=socket.socket(socket.AF_UNIX); s.connect(os.path.basename(sys.argv[1]))
f=[b"2",b"",b"status",b"",b"",b"0"]
h=b"".join(bytes([len(x)])+x for x in f)
try:
    s.sendall(struct.pack(">I",len(h))+h+struct.pack(">Q",0))
    print(len(s.recv(100)))
except (ConnectionResetError, BrokenPipeError):
    print(0)`
	if _, err := exec.LookPath("/usr/bin/python3"); err != nil {
		t.Skip("needs python3 for the other user's client")
	}
	out, err := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", py, sock).CombinedOutput()
	if err != nil {
		t.Fatalf("other user's client: %v\n%s", err, out)
	}
	if strings.TrimSpace(string(out)) != "0" {
		t.Errorf("the engine answered another user: %s bytes", out)
	}
	if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
		t.Errorf("the owner after the refusal: %+v", r)
	}
}

// A client of another binary: the old engine makes way, the step is
// answered, and the next step is served by an engine of the new binary.
func TestOlderEngineReplaced(t *testing.T) {
	w := newWorld(t)
	w.userHooks(denyPush)
	old := w.startEngine()
	// Another install: a copy of the binaries elsewhere.
	dir := t.TempDir()
	for _, name := range []string{"agenthooks", "agenthooks-engine"} {
		b, _ := os.ReadFile(filepath.Join(filepath.Dir(w.bin), name))
		os.WriteFile(filepath.Join(dir, name), b, 0o755)
	}
	w.bin = filepath.Join(dir, "agenthooks")
	if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
		t.Errorf("meeting an older engine: %+v", r)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if st := w.status(); st.Running && st.Engine.PID != old.PID {
			if !strings.HasPrefix(st.Engine.Build, dir) {
				t.Errorf("the new engine runs %s, want one from %s", st.Engine.Build, dir)
			}
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Error("the older engine was not replaced")
}

// engine stop stops it; the next step runs anyway and starts another.
func TestEngineStop(t *testing.T) {
	w := newWorld(t)
	w.userHooks(denyPush)
	st := w.startEngine()
	if r := w.run("", nil, "engine", "stop"); r.code != 0 || !strings.Contains(r.out, fmt.Sprint(st.PID)) {
		t.Fatalf("engine stop: %+v", r)
	}
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(st.PID, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if syscall.Kill(st.PID, 0) == nil {
		t.Error("the engine still runs after stop")
	}
	if r := w.run("", nil, "engine", "status"); r.code != 1 || !strings.Contains(r.out, "no engine is running") {
		t.Errorf("status after stop: %+v", r)
	}
	if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
		t.Errorf("after stop: %+v", r)
	}
}

// Every set of AGENTHOOKS_* settings has an engine of its own; --all
// sees and stops them all, whatever the settings of the caller.
func TestEngineStopAll(t *testing.T) {
	w := newWorld(t)
	w.userHooks(denyPush)
	first := w.startEngine()
	other := []string{"AGENTHOOKS_REDACT=keep"}
	var all []status
	deadline := time.Now().Add(20 * time.Second)
	for len(all) < 2 && time.Now().Before(deadline) {
		w.run(`{"command":"true"}`, other, "run", "beforeShellExecution")
		time.Sleep(100 * time.Millisecond)
		r := w.run("", nil, "engine", "status", "--all", "--json")
		all = nil
		if err := json.Unmarshal([]byte(r.out), &all); err != nil {
			t.Fatalf("status --all --json: %v: %+v", err, r)
		}
	}
	if len(all) != 2 || !all[0].Running || !all[1].Running {
		t.Fatalf("status --all: want both engines running, got %+v", all)
	}
	pids := []int{all[0].Engine.PID, all[1].Engine.PID}
	if !slices.Contains(pids, first.PID) {
		t.Fatalf("status --all does not list the caller's own engine %d: %v", first.PID, pids)
	}
	r := w.run("", other, "engine", "stop", "--all")
	for _, pid := range pids {
		if !strings.Contains(r.out, fmt.Sprintf("engine %d stops", pid)) {
			t.Errorf("stop --all did not stop %d: %+v", pid, r)
		}
	}
	for _, pid := range pids {
		for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if syscall.Kill(pid, 0) == nil {
			t.Errorf("engine %d still runs after stop --all", pid)
		}
	}
	if r := w.run("", nil, "engine", "status", "--all"); !strings.Contains(r.out, "no engine is running") {
		t.Errorf("status --all after stop: %+v", r)
	}
}

// Twenty clients at once: every answer right, every run in the log.
func TestConcurrentClients(t *testing.T) {
	w := newWorld(t)
	w.userHooks(denyPush)
	w.startEngine()
	before := logCount(t, w)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
				t.Errorf("concurrent: %+v", r)
			}
		})
	}
	wg.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for logCount(t, w) < before+20 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if got := logCount(t, w); got != before+20 {
		t.Errorf("log has %d records, want %d", got, before+20)
	}
}

func logCount(t testing.TB, w *world) int {
	t.Helper()
	r := w.run("", nil, "log", "--json", "--limit", "0")
	n := 0
	for _, l := range strings.Split(r.out, "\n") {
		if strings.Contains(l, `"beforeShellExecution"`) {
			n++
		}
	}
	return n
}

// Without agenthooks-engine, or when it dies without answering (a crash,
// the OOM killer), the step is blocked in each agent's own blocking form,
// not let through: Copilot, for one, reads exit 2 as a warning. The
// answer is the bytes the agent's dialect renders for a refusal.
func TestMissingEngineBinaryBlocks(t *testing.T) {
	dir := t.TempDir()
	b, _ := os.ReadFile(filepath.Join(binaries(t), "agenthooks"))
	bin := filepath.Join(dir, "agenthooks")
	os.WriteFile(bin, b, 0o755)
	dying := filepath.Join(dir, "dying-engine")
	os.WriteFile(dying, []byte("#!/bin/sh\ncat >/dev/null\nkill -9 $$\n"), 0o755)
	crashing := filepath.Join(dir, "crashing-engine") // as the Go runtime ends a program
	os.WriteFile(crashing, []byte("#!/bin/sh\ncat >/dev/null\necho 'runtime: goroutine stack exceeds 1000000000-byte limit' >&2\necho 'fatal error: stack overflow' >&2\nexit 2\n"), 0o755)
	cases := map[string][]string{"cursor": {"run", "beforeShellExecution"}}
	for _, a := range agents.All {
		cases[a.Name()] = []string{"run", "--from", a.Name()}
	}
	cases["copilot"] = []string{"run", "--from=copilot", "preToolUse"}
	faults := map[string][]string{
		"missing": {"PATH=/nonexistent", "HOME=" + dir},
		"killed":  {"PATH=/usr/bin:/bin", "HOME=" + dir, "AGENTHOOKS_ENGINE=off", "AGENTHOOKS_ENGINE_BIN=" + dying},
		"crashed": {"PATH=/usr/bin:/bin", "HOME=" + dir, "AGENTHOOKS_ENGINE=off", "AGENTHOOKS_ENGINE_BIN=" + crashing},
	}
	for fault, env := range faults {
		for name, args := range cases {
			cmd := exec.Command(bin, args...)
			cmd.Env = env
			cmd.Stdin = strings.NewReader(claudePush)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			want := agent.Answer{Stderr: blockedMsg, Code: 2}
			if a, ok := agents.Lookup(name); ok {
				want = a.Dialect.Refuse(blockedMsg)
			}
			if code != want.Code || out.String() != string(want.Stdout) || !strings.Contains(errOut.String(), blockedMsg) {
				t.Errorf("%s, %s: exit %d, stdout %q; want exit %d, stdout %q; stderr %s", fault, name, code, out.String(), want.Code, want.Stdout, errOut.String())
			}
			if fault == "missing" && !strings.Contains(errOut.String(), "agenthooks-engine") {
				t.Errorf("%s, %s: stderr does not name the missing binary: %s", fault, name, errOut.String())
			}
		}
	}
}

// blockedMsg is the client's reason for a step no hooks could decide.
const blockedMsg = "agenthooks: the step is blocked: no hooks could run"

func waitFile(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", path)
}

// A trusted project's script edited after the trust stops its hook from
// the very next step, as in a process of its own.
func TestEditedScriptStopsAtOnce(t *testing.T) {
	w := newWorld(t)
	os.MkdirAll(filepath.Join(w.ws, ".cursor"), 0o755)
	script := filepath.Join(w.ws, "guard.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho '{\"permission\":\"deny\",\"user_message\":\"guarded\"}'\n"), 0o755)
	os.WriteFile(filepath.Join(w.ws, ".cursor", "hooks.json"), []byte(`{"version":1,"hooks":{"beforeShellExecution":[{"command":"./guard.sh"}]}}`), 0o644)
	if r := w.run("", nil, "trust", w.ws); r.code != 0 {
		t.Fatalf("trust: %+v", r)
	}
	payload := fmt.Sprintf(`{"command":"ls","cwd":%q,"workspace_roots":[%q]}`, w.ws, w.ws)
	w.startEngine()
	time.Sleep(2100 * time.Millisecond) // past the racy window: the engine keeps its load
	if r := w.run(payload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, "guarded") {
		t.Fatalf("trusted hook did not run: %+v", r)
	}
	os.WriteFile(script, []byte("#!/bin/sh\necho '{\"permission\":\"allow\"}'\n"), 0o755)
	r := w.run(payload, nil, "run", "beforeShellExecution")
	if strings.Contains(r.out, "allow") || !strings.Contains(r.err, "guard.sh") {
		t.Errorf("the edited script ran, or nobody said why not: %+v", r)
	}
	if st := w.status(); !st.Running || st.Engine.Steps < 2 {
		t.Errorf("the engine did not serve these steps: %+v", st)
	}
}

// The agent kills the client while the step's hook runs in the engine:
// the closed connection cancels the step, and the engine stops the hook
// (it does not run on for the rest of its timeout), then serves on.
func TestClientGoneStopsHook(t *testing.T) {
	w := newWorld(t)
	w.userHooks(denyPush)
	st := w.startEngine()
	pidFile := filepath.Join(w.ws, "hook.pid")
	w.userHooks(fmt.Sprintf(`{"version":1,"hooks":{"beforeShellExecution":[{"command":"echo $$ > %s; exec sleep 30","timeout":60}]}}`, pidFile))

	cmd := exec.Command(w.bin, "run", "beforeShellExecution")
	cmd.Env, cmd.Dir = w.env, w.ws
	cmd.Stdin = strings.NewReader(pushPayload)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFile(t, pidFile)
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0 && time.Now().Before(deadline); {
		b, _ := os.ReadFile(pidFile)
		fmt.Sscan(string(b), &pid)
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatal("the hook wrote no pid")
	}
	cmd.Process.Kill()
	cmd.Wait()
	deadline := time.Now().Add(15 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatal("the hook still runs after its client was killed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.userHooks(denyPush)
	if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
		t.Errorf("after a client was killed mid-step: %+v", r)
	}
	if now := w.status().Engine; now == nil || now.PID != st.PID || now.Steps < 2 {
		t.Errorf("the engine did not run the steps: before %+v, after %+v", st, now)
	}
}

// While a process holds the engine's lock and no engine answers (one on
// its way in or out, or stuck), steps run in processes of their own and
// start no engine, and status says a process holds the lock; once it is
// let go, the next step starts an engine again.
func TestLockHeldWithoutEngine(t *testing.T) {
	w := newWorld(t)
	w.userHooks(denyPush)
	sock := w.socket()
	if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(wire.LockFile(sock), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if ok, err := filelock.TryLock(lock); !ok || err != nil {
		t.Fatalf("take the engine's lock: %v, %v", ok, err)
	}
	for i := range 3 {
		if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
			t.Fatalf("step %d with the lock held: %+v", i, r)
		}
	}
	if r := w.run("", nil, "engine", "status"); r.code != 1 || !strings.Contains(r.out, "holds its lock") {
		t.Errorf("status with the lock held: %+v", r)
	}
	// A client that starts an engine opens its log first.
	if _, err := os.Stat(sock + ".log"); err == nil {
		t.Error("a step started an engine while another held the lock")
	}
	lock.Close()
	w.startEngine()
}
