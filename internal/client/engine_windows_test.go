//go:build windows

package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// envBin names a folder that holds agenthooks.exe and
// agenthooks-engine.exe to test end to end; without it they are built
// with the go command, when there is one.
const envBin = "AGENTHOOKS_TEST_WINDOWS_BIN"

// winBinaries copies the two binaries into a folder of the test's own
// (so that one can be replaced) and returns it.
func winBinaries(t *testing.T) string {
	t.Helper()
	dir := tempDir(t)
	src := os.Getenv(envBin)
	if src == "" {
		if _, err := exec.LookPath("go"); err != nil {
			t.Skipf("neither $%s nor the go command", envBin)
		}
		if out, err := exec.Command("go", "build", "-o", dir+`\`, "../../cmd/...").CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		return dir
	}
	for _, name := range []string{"agenthooks.exe", EngineName + ".exe"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type winWorld struct {
	t   *testing.T
	bin string
	eng string
	ws  string
	env []string
}

func newWinWorld(t *testing.T) *winWorld {
	t.Helper()
	bins := winBinaries(t)
	root := tempDir(t)
	w := &winWorld{t: t, bin: filepath.Join(bins, "agenthooks.exe"), eng: filepath.Join(bins, EngineName+".exe"), ws: filepath.Join(root, "ws")}
	for _, d := range []string{"ws", "home", "tmp", "roaming", "local"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(k) {
		case "TMP", "TEMP", "USERPROFILE", "HOME", "APPDATA", "LOCALAPPDATA", "AGENTHOOKS_ENGINE", envFull:
			continue
		}
		w.env = append(w.env, kv)
	}
	w.env = append(w.env, "TMP="+filepath.Join(root, "tmp"), "TEMP="+filepath.Join(root, "tmp"),
		"USERPROFILE="+filepath.Join(root, "home"), "APPDATA="+filepath.Join(root, "roaming"),
		"LOCALAPPDATA="+filepath.Join(root, "local"), "AGENTHOOKS_ENGINE_IDLE=1m")
	t.Cleanup(func() {
		w.run("", nil, "engine", "stop")
		// The engine lets go of its folder's files once it is gone.
		deadline := time.Now().Add(10 * time.Second)
		for w.status().Running && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
		if t.Failed() {
			logs, _ := filepath.Glob(filepath.Join(root, "tmp", "agenthooks-*", "*.log"))
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				t.Logf("engine log %s:\n%s", l, b)
			}
		}
	})
	return w
}

type winResult struct {
	out, err string
	code     int
}

func (w *winWorld) run(stdin string, extra []string, args ...string) winResult {
	w.t.Helper()
	cmd := exec.Command(w.bin, args...)
	cmd.Env = append(append([]string{}, w.env...), extra...)
	cmd.Dir = w.ws
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatalf("run %v: %v", args, err)
	}
	return winResult{out.String(), errb.String(), code}
}

type winStatus struct {
	Running bool         `json:"running"`
	Error   string       `json:"error"`
	Engine  *wire.Status `json:"engine"`
}

func (w *winWorld) status() winStatus {
	w.t.Helper()
	r := w.run("", nil, "engine", "status", "--json")
	var st winStatus
	if err := json.Unmarshal([]byte(r.out), &st); err != nil {
		w.t.Fatalf("engine status --json: %v: %q %q", err, r.out, r.err)
	}
	return st
}

// waitEngine waits for an engine other than the one of pid not.
func (w *winWorld) waitEngine(not int) *wire.Status {
	w.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if st := w.status(); st.Running && st.Engine.PID != not {
			return st.Engine
		}
		time.Sleep(100 * time.Millisecond)
	}
	w.t.Fatal("no engine started")
	return nil
}

const winPolicy = "version: 1\nrules:\n  - name: no-push\n    steps: [beforeShellExecution]\n    when: commands(command).exists(c, gitPush(c).push)\n    decision: deny\n    user_message: pushing is for humans\n"

const winPush = `{"hook_event_name":"beforeShellExecution","command":"git push origin main","cwd":"C:\\"}`

// End to end with the two binaries: the first step runs in a process of
// its own and starts the engine, detached; the next ones are the
// engine's, with the same answers; exec's plan is the engine's and the
// command the client's; the status verb sees it; a rebuilt
// engine binary replaces it; stop stops it.
func TestEngineEndToEnd(t *testing.T) {
	w := newWinWorld(t)
	if err := os.WriteFile(filepath.Join(w.ws, "p.yaml"), []byte(winPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	if st := w.status(); st.Running {
		t.Fatalf("an engine runs already: %+v", st.Engine)
	}
	first := w.run(winPush, nil, "policy", "p.yaml")
	if !strings.Contains(first.out, "deny") {
		t.Fatalf("first step: %+v", first)
	}
	st := w.waitEngine(0)
	if !strings.HasPrefix(st.Socket, `\\.\pipe\agenthooks-S-1-`) {
		t.Errorf("the engine listens on %s", st.Socket)
	}
	for i := range 3 {
		on := w.run(winPush, nil, "policy", "p.yaml")
		off := w.run(winPush, []string{"AGENTHOOKS_ENGINE=off"}, "policy", "p.yaml")
		if on != off || on != first {
			t.Errorf("step %d: engine %+v, own process %+v, first %+v", i, on, off, first)
		}
	}
	if got := w.status(); !got.Running || got.Engine.PID != st.PID || got.Engine.Steps != 3 {
		t.Fatalf("after 3 steps: %+v; want 3 steps by pid %d", got.Engine, st.PID)
	}
	// exec: the engine plans, the client runs the command.
	if r := w.run("", nil, "exec", "--", "cmd", "/c", "echo", "hi"); r.code != 0 || strings.TrimSpace(r.out) != "hi" {
		t.Errorf("exec: %+v", r)
	}
	if got := w.status(); !got.Running || got.Engine.PID != st.PID || got.Engine.Steps < 4 {
		t.Errorf("after exec: %+v; want its plan served by pid %d", got.Engine, st.PID)
	}
	text := w.run("", nil, "engine", "status")
	if text.code != 0 || !strings.Contains(text.out, "engine running") || !strings.Contains(text.out, st.Socket) {
		t.Errorf("engine status: %+v", text)
	}

	// Another engine binary: the engine makes way, the step runs here,
	// and a new engine serves the next ones.
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(w.eng, later, later); err != nil {
		t.Fatal(err)
	}
	if r := w.run(winPush, nil, "policy", "p.yaml"); r != first {
		t.Errorf("step after the engine binary changed: %+v", r)
	}
	st2 := w.waitEngine(st.PID)
	if r := w.run(winPush, nil, "policy", "p.yaml"); r != first {
		t.Errorf("step on the new engine: %+v", r)
	}
	if got := w.status(); !got.Running || got.Engine.PID != st2.PID || got.Engine.Steps != 1 {
		t.Errorf("the new engine: %+v; want 1 step by pid %d", got.Engine, st2.PID)
	}

	if r := w.run("", nil, "engine", "stop"); r.code != 0 || !strings.Contains(r.out, "stops") {
		t.Errorf("engine stop: %+v", r)
	}
	deadline := time.Now().Add(10 * time.Second)
	for w.status().Running {
		if time.Now().After(deadline) {
			t.Fatal("the engine still runs after stop")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
