//go:build unix

package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/fakemodel"
	"github.com/agenthooks/agenthooks/internal/wire"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binaries builds the client and agenthooks-engine beside it (with -race
// when the tests run with it).
func binaries(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "agenthooks-front-bin-")
		if buildErr != nil {
			return
		}
		args := []string{"build", "-o", binDir + "/"}
		if raceEnabled {
			// The engine serves clients concurrently: race-check it.
			args = append(args, "-race")
		}
		out, err := exec.Command("go", append(args, "../../cmd/...")...).CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// world is one user's setting: a home with user hooks, a workspace, and
// a TMPDIR of its own, so each test has its own engine, stopped at the
// end.
type world struct {
	t    testing.TB
	bin  string // the client
	eng  string // agenthooks-engine
	home string
	ws   string
	tmp  string
	env  []string
}

func newWorld(t testing.TB) *world {
	t.Helper()
	dir := binaries(t)
	root := t.TempDir()
	w := &world{t: t, bin: filepath.Join(dir, "agenthooks"), eng: filepath.Join(dir, "agenthooks-engine"),
		home: filepath.Join(root, "home"), ws: filepath.Join(root, "ws"), tmp: filepath.Join(root, "tmp")}
	for _, d := range []string{w.home + "/.cursor", w.ws, w.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A race the detector finds in a detached engine goes to a file, as
	// its stderr goes nowhere; and no process of the race build sleeps a
	// second at exit (a client and the process it runs would sleep two).
	races := filepath.Join(root, "race")
	w.env = []string{"HOME=" + w.home, "TMPDIR=" + w.tmp, "PATH=" + os.Getenv("PATH"),
		"AGENTHOOKS_ENGINE_IDLE=1m", "XDG_RUNTIME_DIR=", "GORACE=atexit_sleep_ms=0 log_path=" + races}
	t.Cleanup(func() {
		fakemodel.StopEngines(w.engineDir())
		if t.Failed() {
			logs, _ := filepath.Glob(filepath.Join(w.engineDir(), "*.log"))
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				t.Logf("engine log %s:\n%s", l, b)
			}
		}
		logs, _ := filepath.Glob(races + ".*")
		for _, l := range logs {
			b, _ := os.ReadFile(l)
			t.Errorf("the race detector, in %s:\n%s", l, b)
		}
	})
	return w
}

// userHooks writes the user's hooks.json (no trust needed).
func (w *world) userHooks(js string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.home, ".cursor", "hooks.json"), []byte(js), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

type result struct {
	out, err string
	code     int
}

// run runs the client with extra environment entries.
func (w *world) run(stdin string, extra []string, args ...string) result {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.bin, args...)
	cmd.Env = append(append([]string{}, w.env...), extra...)
	cmd.Dir = w.ws
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatalf("run %v: %v", args, err)
	}
	return result{out.String(), errb.String(), code}
}

// socket is the path the world's clients use.
func (w *world) socket() string {
	return filepath.Join(w.engineDir(), wire.SocketName(w.env))
}

// engineDir is where the world's engines listen: its state folder, as
// XDG_RUNTIME_DIR is unset (wire.Dir).
func (w *world) engineDir() string {
	return filepath.Join(w.home, ".local", "state", "agenthooks", "run")
}

type status struct {
	Running bool         `json:"running"`
	Error   string       `json:"error"`
	Engine  *wire.Status `json:"engine"`
}

func (w *world) status() status {
	w.t.Helper()
	var st status
	for range 3 {
		r := w.run("", nil, "engine", "status", "--json")
		st = status{}
		if err := json.Unmarshal([]byte(r.out), &st); err != nil {
			w.t.Fatalf("engine status --json: %v: %q %q", err, r.out, r.err)
		}
		if st.Running || st.Error == "" || strings.Contains(st.Error, "no such file") {
			return st
		}
		w.t.Logf("engine status: %s", st.Error) // tried again below
		time.Sleep(200 * time.Millisecond)
	}
	return st
}

// waitEngine waits for the engine a first step started.
func (w *world) waitEngine() *wire.Status {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if st := w.status(); st.Running {
			return st.Engine
		}
		time.Sleep(50 * time.Millisecond)
	}
	w.t.Fatal("no engine started")
	return nil
}

// startEngine makes sure an engine serves the world's clients.
func (w *world) startEngine() *wire.Status {
	w.t.Helper()
	w.run(`{"command":"true"}`, nil, "run", "beforeShellExecution")
	return w.waitEngine()
}
