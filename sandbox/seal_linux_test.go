package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/needs"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// The seal of docs/sandbox.md's threat model, tried as an attacker would
// through the real binaries: the agent's `agenthooks -c`, the resident
// engine, a hook. Each attack fails; the allowed work still succeeds.

var (
	sealOnce sync.Once
	sealBin  string
	sealErr  error
)

// sealBinaries builds agenthooks and agenthooks-engine once.
func sealBinaries(t *testing.T) string {
	t.Helper()
	sealOnce.Do(func() {
		if sealBin, sealErr = os.MkdirTemp("", "agenthooks-seal-bin-"); sealErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", sealBin+"/", "../cmd/...").CombinedOutput()
		if err != nil {
			sealErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if sealErr != nil {
		t.Fatal(sealErr)
	}
	return sealBin
}

const sealToken = "team-token-that-stays-home"

// sealWorld is a user whose sandbox.json allows one host, with one
// beforeShellExecution hook that denies commands containing "denyme",
// runs "marker" from its PATH, and records its ancestors' environments.
type sealWorld struct {
	t                         *testing.T
	as                        []string // runs the client as another user
	client, engine, self      string
	root, home, ws, log, ward string
	env                       []string
}

func newSealWorld(t *testing.T, allowHost string) *sealWorld {
	bin := sealBinaries(t)
	root := t.TempDir()
	self, _ := os.Executable()
	w := &sealWorld{t: t, client: filepath.Join(bin, "agenthooks"), engine: filepath.Join(bin, "agenthooks-engine"), self: self,
		root: root, home: filepath.Join(root, "home"), ws: filepath.Join(root, "ws"), log: filepath.Join(root, "hook.log"),
		ward: filepath.Join(root, "home", "ward")}
	for _, d := range []string{w.home + "/.cursor", w.ws + "/bin", root + "/tmp", w.ward} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(w.engineDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	p := Policy{Network: Network{Default: NetDeny}}
	needKernel(t, p)
	// The engine's folder is writable from inside (as it is with a home
	// under a temporary folder): what keeps the engine's place is the
	// socket filter and the peer check, not the folder. The rest of the
	// home is not.
	w.write(filepath.Join(w.home, ".cursor", "sandbox.json"), fmt.Sprintf(`{"networkPolicy": {"default": "deny", "allow": [%q]}, "disableTmpWrite": true, "additionalReadwritePaths": [%q, %q]}`,
		allowHost, root+"/tmp", w.engineDir()))
	hook := filepath.Join(root, "hook.sh")
	w.write(hook, `#!/bin/sh
in=$(cat)
pid=$$
while [ "$pid" -gt 1 ]; do
  pid=$(awk '{print $4}' /proc/$pid/stat)
  comm=$(cat /proc/$pid/comm)
  { echo "== $pid $comm"; cat /proc/$pid/environ | tr '\0' '\n'; } >> `+w.log+` 2>&1
done
marker 2>/dev/null
case "$in" in *denyme*) echo '{"permission":"deny","user_message":"denied by the hook"}' ;; *) echo '{"permission":"allow"}' ;; esac
`)
	os.Chmod(hook, 0o755)
	w.write(filepath.Join(w.home, ".cursor", "hooks.json"), fmt.Sprintf(`{"version":1,"hooks":{"beforeShellExecution":[{"command":%q}]}}`, hook))
	// What a command plants for the engine to run: it writes outside
	// the sandbox's write set.
	marker := filepath.Join(w.ws, "bin", "marker")
	w.write(marker, "#!/bin/sh\necho pwned > "+w.ward+"/pwned\n")
	os.Chmod(marker, 0o755)
	w.env = []string{"HOME=" + w.home, "TMPDIR=" + root + "/tmp", "PATH=" + filepath.Dir(w.client) + ":/usr/bin:/bin",
		"XDG_RUNTIME_DIR=", "AGENTHOOKS_ENGINE_IDLE=1m", "AGENTHOOKS_TEAM_TOKEN=" + sealToken, "SEAL_TEST=" + self}
	t.Cleanup(func() {
		_, _ = w.run("", w.engine, "engine", "stop")
		if t.Failed() {
			logs, _ := filepath.Glob(filepath.Join(w.engineDir(), "*.log"))
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				t.Logf("engine log:\n%s", b)
			}
		}
	})
	return w
}

func (w *sealWorld) write(path, body string) {
	w.t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *sealWorld) engineDir() string {
	return filepath.Join(w.home, ".local", "state", "agenthooks", "run")
}

func (w *sealWorld) socket() string {
	return filepath.Join(w.engineDir(), wire.SocketName(w.env))
}

// run runs argv in the workspace with the world's environment and extra
// variables; it returns the output and the exit status.
func (w *sealWorld) run(stdin string, argv ...string) (string, int) {
	return w.runEnv(nil, stdin, argv...)
}

func (w *sealWorld) runEnv(extra []string, stdin string, argv ...string) (string, int) {
	w.t.Helper()
	// Not the test's context: the engine is stopped in a cleanup, after
	// it ends.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	argv = append(append([]string{}, w.as...), argv...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdin = w.ws, append(append([]string{}, w.env...), extra...), strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		w.t.Fatalf("%v: %v", argv, err)
	}
	return string(out), 0
}

// shell is the agent running a command through agenthooks -c.
func (w *sealWorld) shell(command string) (string, int) {
	w.t.Helper()
	return w.run("", w.client, "-c", command)
}

// engineUp waits for the resident engine and returns its status.
func (w *sealWorld) engineUp() wire.Status {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, code := w.run("", w.engine, "engine", "status", "--json")
		var st struct {
			Engine wire.Status `json:"engine"`
		}
		if code == 0 && json.Unmarshal([]byte(out), &st) == nil && st.Engine.PID > 0 {
			return st.Engine
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("no engine came up: %s", out)
		}
		w.shell("true") // the first step starts one
		time.Sleep(100 * time.Millisecond)
	}
}

func (w *sealWorld) pwned() bool {
	_, err := os.Stat(filepath.Join(w.ward, "pwned"))
	return err == nil
}

func TestSealAllowedWorkStillSucceeds(t *testing.T) {
	srv := httpServer(t, "allowed-body")
	w := newSealWorld(t, "127.0.0.1")
	w.engineUp()
	out, code := w.shell("echo hi > inside && " + w.self + " helper-get http://" + srv + "/")
	if code != 0 || !strings.Contains(out, "allowed-body") {
		t.Fatalf("the allowed work failed (%d): %s", code, out)
	}
	if b, err := os.ReadFile(filepath.Join(w.ws, "inside")); err != nil || string(b) != "hi\n" {
		t.Errorf("the workspace write did not happen: %v", err)
	}
	out, code = w.shell("echo x > " + w.ward + "/outside")
	if code == 0 {
		t.Errorf("a write outside the workspace succeeded: %s", out)
	}
	if out, code := w.shell("echo denyme"); code == 0 || !strings.Contains(out, "denied by the hook") {
		t.Errorf("the hook did not deny (%d): %s", code, out)
	}
}

func TestSealEnginePATHRunStaysInside(t *testing.T) {
	w := newSealWorld(t, "example.com")
	before := w.engineUp()
	attack := `echo '{"command":"ls","cwd":"` + w.ws + `"}' | env -u AGENTHOOKS_SANDBOX PATH=$PWD/bin:$PATH agenthooks run beforeShellExecution`
	out, _ := w.shell(attack)
	if w.pwned() {
		t.Fatalf("the engine ran the command's planted program outside the sandbox: %s", out)
	}
	if after := w.engineUp(); after.PID != before.PID || after.Steps != before.Steps+2 {
		// +2: the attack's own agenthooks -c, planned and reported by
		// the engine.
		t.Errorf("the engine served a request from inside the sandbox: steps %d → %d", before.Steps, after.Steps)
	}
	// The same request from outside the sandbox does run it: the test
	// can fail.
	w.runEnv([]string{"PATH=" + w.ws + "/bin:" + filepath.Dir(w.client) + ":/usr/bin:/bin"}, `{"command":"ls","cwd":"`+w.ws+`"}`, w.client, "run", "beforeShellExecution")
	if !w.pwned() {
		t.Fatal("the planted program does not run from outside either: the attack proves nothing")
	}
}

func TestSealEngineStopFromInsideFails(t *testing.T) {
	w := newSealWorld(t, "example.com")
	before := w.engineUp()
	out, _ := w.shell("agenthooks engine stop; agenthooks engine stop --all")
	time.Sleep(300 * time.Millisecond)
	if after := w.engineUp(); after.PID != before.PID {
		t.Errorf("the engine was stopped from inside the sandbox: pid %d → %d: %s", before.PID, after.PID, out)
	}
	// From outside, it stops: the test can fail.
	if out, code := w.run("", w.engine, "engine", "stop"); code != 0 || !strings.Contains(out, "stop") {
		t.Fatalf("engine stop from outside: %d %s", code, out)
	}
}

func TestSealReplacedSocketFails(t *testing.T) {
	w := newSealWorld(t, "example.com")
	w.engineUp()
	sock := w.socket()
	out, _ := w.shell("rm -f " + sock + "; " + w.self + " helper-fake-engine " + sock)
	if !strings.Contains(out, "listen:") {
		t.Errorf("the fake engine did not fail to listen: %s", out)
	}
	if out, code := w.shell("echo denyme"); code == 0 || !strings.Contains(out, "denied by the hook") {
		t.Errorf("after the replacement, the hook did not deny (%d): %s", code, out)
	}
}

// A squatter outside agenthooks' sandbox but inside another (no_new_privs
// set, as any sandbox sets it) listens before the engine starts: the
// client does not trust it. An unconfined one is the user and is
// trusted, which shows the fake engine would be believed.
func TestSealSquattedSocketIsNotTrusted(t *testing.T) {
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		needs.Missing(t, "needs setpriv (util-linux)")
	}
	for _, c := range []struct {
		name     string
		argv     []string
		believed bool
	}{
		{"confined", []string{setpriv, "--no-new-privs"}, false},
		{"unconfined", nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newSealWorld(t, "example.com")
			sock := w.socket()
			if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
				t.Fatal(err)
			}
			argv := append(c.argv, w.self, "helper-fake-engine", sock)
			squat := exec.Command(argv[0], argv[1:]...)
			squat.Env = w.env
			squat.Stdout, squat.Stderr = os.Stderr, os.Stderr
			if err := squat.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { squat.Process.Kill(); squat.Wait() }()
			for i := 0; i < 100; i++ {
				if _, err := os.Stat(sock); err == nil {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			out, code := w.shell("echo denyme")
			denied := code != 0 && strings.Contains(out, "denied by the hook")
			if denied == c.believed {
				t.Errorf("believed the squatter: %v, want %v (%d): %s", !denied, c.believed, code, out)
			}
		})
	}
}

func TestSealNetworkSideDoorsAreShut(t *testing.T) {
	w := newSealWorld(t, "example.com")
	for _, kind := range []string{"tcp-fastopen", "tcp-fastopen-sendmsg", "tcp-fastopen-connect", "vsock", "unix"} {
		addr, got := listener(t)
		if kind == "unix" {
			addr = w.socket()
		}
		out, code := w.shell(w.self + " helper-probe " + kind + " " + addr)
		if code == 0 || !strings.Contains(out, "refused") {
			t.Errorf("%s from inside agenthooks -c: status %d: %s", kind, code, out)
		}
		quiet(t, kind, got)
	}
}

// A hook reads the environment of every process above it: the engine
// (resident, or the process that runs a step in its client's place) and
// the client, which holds the agent's environment. Run as a user (root
// may read any process: docs/sandbox.md), none shows the team token; as
// root, agenthooks-engine still does not, as it never held it in its
// environment.
func TestSealHooksCannotReadSecrets(t *testing.T) {
	views := []string{"user"}
	if os.Getuid() == 0 {
		views = append(views, "root")
	}
	for _, view := range views {
		for _, mode := range []string{"engine", "first-step"} {
			t.Run(view+"/"+mode, func(t *testing.T) {
				w := newSealWorld(t, "example.com")
				if view == "user" && os.Getuid() == 0 {
					w.becomeUser()
				}
				if mode == "engine" {
					w.engineUp()
					os.Remove(w.log)
				}
				if out, code := w.shell("true"); code != 0 {
					t.Fatalf("agenthooks -c true: %d %s", code, out)
				}
				b, err := os.ReadFile(w.log)
				if err != nil {
					t.Fatal(err)
				}
				tried := false
				for _, block := range strings.Split(string(b), "== ")[1:] {
					head, body, _ := strings.Cut(block, "\n")
					f := strings.Fields(head) // pid comm
					if len(f) < 2 {
						continue
					}
					agenthooks := strings.HasPrefix(f[1], "agenthooks")
					tried = tried || agenthooks
					if strings.Contains(body, sealToken) && (view == "user" || f[1] == "agenthooks-engi") {
						t.Errorf("a hook read the team token from %s (pid %s)", f[1], f[0])
					}
					if view == "root" && agenthooks && !strings.Contains(body, "HOME=") {
						t.Errorf("as root the hook could not read %s's environment, so the check proves nothing:\n%s", f[1], body)
					}
				}
				if !tried || (mode == "first-step" && !strings.Contains(string(b), " agenthooks\n")) {
					t.Errorf("the hook's ancestors are not the processes the test means:\n%s", b)
				}
				if t.Failed() {
					t.Logf("what the hook read:\n%s", b)
				}
			})
		}
	}
}

// becomeUser runs the world's client as nobody (65534), owning its
// files: a hook then runs as a user, as hooks do, without root's reach
// into every process.
func (w *sealWorld) becomeUser() {
	w.t.Helper()
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		needs.Missing(w.t, "needs setpriv (util-linux) to run as a user")
	}
	for d := w.root; d != "/"; d = filepath.Dir(d) {
		traversable(d)
	}
	os.Chmod(w.engineDir(), 0o700)
	for d := filepath.Dir(w.client); d != "/"; d = filepath.Dir(d) {
		traversable(d)
	}
	if err := filepath.Walk(w.root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 65534, 65534)
	}); err != nil {
		w.t.Fatal(err)
	}
	w.as = []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"}
}

// httpServer serves body on 127.0.0.1 and returns its address.
func httpServer(t *testing.T, body string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) { fmt.Fprint(rw, body) })}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// helperFakeEngine listens at sock and answers every request as an
// engine that allows everything would: what a command that took the
// engine's place would run.
func helperFakeEngine(sock string) int {
	addr, done, err := wire.SocketAddr(sock)
	if err != nil {
		fmt.Println("listen:", err)
		return 3
	}
	ln, err := net.Listen("unix", addr)
	done()
	if err != nil {
		fmt.Println("listen:", err)
		return 3
	}
	defer ln.Close()
	for {
		c, err := ln.Accept()
		if err != nil {
			return 0
		}
		go func() {
			defer c.Close()
			r := bufio.NewReader(c)
			var req wire.Request
			if wire.ReadRequest(r, &req) != nil {
				return
			}
			if _, err := wire.ReadBody(r, wire.MaxBody); err != nil {
				return
			}
			out := `{"permission":"allow"}`
			if len(req.Args) > 1 && req.Args[0] == "exec" && req.Args[1] == "--plan" {
				p := wire.ExecPlan{Run: true, Argv: []string{"/bin/sh", "-c", "echo unhooked"}, Dir: "/"}
				b, _ := json.Marshal(p)
				out = string(b)
			}
			_ = wire.WriteAck(c, wire.Ack{})
			_ = wire.WriteReply(c, wire.Reply{Code: 0})
			_ = wire.WriteBody(c, []byte(out))
			_ = wire.WriteBody(c, nil)
		}()
	}
}

// traversable lets every user search and list folder d, adding to its
// mode rather than setting one: /tmp keeps its sticky, world-writable
// mode (setting 0755 there broke every other user of the machine).
func traversable(d string) {
	fi, err := os.Stat(d)
	if err != nil || fi.Mode().Perm()&0o005 == 0o005 {
		return
	}
	keep := fi.Mode() & (os.ModePerm | os.ModeSticky | os.ModeSetuid | os.ModeSetgid)
	os.Chmod(d, keep|0o005)
}
