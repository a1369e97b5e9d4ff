//go:build unix

package e2e

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
	"syscall"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/fakemodel"
	"github.com/agenthooks/agenthooks/internal/needs"
)

// denyMarker is in the deny reason of the workspace's hook, so a test can
// find that reason where it ends up: in what the agent sends its model.
const denyMarker = "AGENTHOOKS-E2E-DENY-7Q2X"

// hooksJSON is the workspace's Cursor hooks: a beforeShellExecution hook
// that denies git push, and a hook that records the other steps.
const hooksJSON = `{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [{ "command": "./.cursor/hooks/deny-push.sh" }],
    "sessionStart":         [{ "command": "./.cursor/hooks/record.sh" }],
    "beforeSubmitPrompt":   [{ "command": "./.cursor/hooks/record.sh" }],
    "preToolUse":           [{ "command": "./.cursor/hooks/record.sh" }],
    "postToolUse":          [{ "command": "./.cursor/hooks/record.sh" }],
    "afterShellExecution":  [{ "command": "./.cursor/hooks/record.sh" }],
    "stop":                 [{ "command": "./.cursor/hooks/record.sh", "loop_limit": 1 }],
    "sessionEnd":           [{ "command": "./.cursor/hooks/record.sh" }]
  }
}
`

// record appends its payload to $E2E_HOOK_LOG and has no opinion, except
// that a sessionStart sets $E2E_SESSION_MARK for the session's later hooks
// (each appends the value it sees to $E2E_HOOK_LOG.env), and that with
// $E2E_FOLLOWUP set a stop gets it as a follow-up (once: the hook's
// loop_limit is 1).
const record = `#!/bin/sh
payload=$(cat)
printf '%s\n' "$payload" >> "$E2E_HOOK_LOG"
if [ -n "$E2E_SESSION_MARK" ]; then printf '%s\n' "$E2E_SESSION_MARK" >> "$E2E_HOOK_LOG.env"; fi
case "$payload" in
*'"hook_event_name":"sessionStart"'*)
  echo '{"env":{"E2E_SESSION_MARK":"` + sessionMark + `"}}'
  exit 0 ;;
*'"hook_event_name":"stop"'*)
  if [ -n "$E2E_FOLLOWUP" ]; then
    printf '{"followup_message":"%s"}\n' "$E2E_FOLLOWUP"
    exit 0
  fi ;;
esac
echo '{}'
`

// sessionMark is the value of the sessionStart hook's env.
const sessionMark = "AGENTHOOKS-E2E-SESSION-4H8"

// denyPush denies any command with "git push" in it and allows the rest.
// It appends each payload to $E2E_HOOK_LOG too, and the session's mark.
const denyPush = `#!/bin/sh
payload=$(cat)
printf '%s\n' "$payload" >> "$E2E_HOOK_LOG"
if [ -n "$E2E_SESSION_MARK" ]; then printf '%s\n' "$E2E_SESSION_MARK" >> "$E2E_HOOK_LOG.env"; fi
case "$payload" in
*'git push'*)
  echo '{"permission":"deny","user_message":"pushing is blocked by policy ` + denyMarker + `","agent_message":"pushing is blocked by policy ` + denyMarker + `"}' ;;
*)
  echo '{"permission":"allow"}' ;;
esac
`

// workspace is a project with trusted Cursor hooks, and an environment
// of its own for the agent: HOME, the XDG directories, agenthooks' state
// and trust store all under the test's temporary directory, and a git on
// PATH that records its invocations and never pushes.
type workspace struct {
	t    *testing.T
	Dir  string // the project
	Home string
	Bin  string // agenthooks
	// Shims is the folder first on the agent's PATH (the git that
	// records its calls).
	Shims   string
	env     []string
	gitLog  string
	hookLog string
	// noSessionState: agenthooks has no state store here, so a
	// sessionStart env cannot reach the hooks of later steps.
	noSessionState bool
}

func newWorkspace(t *testing.T) *workspace {
	t.Helper()
	needs.Short(t, "the end-to-end tests: built binaries, and the real agents from npm")
	root := tempRoot(t)
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r // agents compare real paths (trusted folders)
	}
	w := &workspace{
		t:       t,
		Dir:     filepath.Join(root, "project"),
		Home:    filepath.Join(root, "home"),
		Bin:     binary(t),
		gitLog:  filepath.Join(root, "log", "git.log"),
		hookLog: filepath.Join(root, "log", "hook.log"),
	}
	shims := filepath.Join(root, "bin")
	w.Shims = shims
	for _, d := range []string{w.Dir, w.Home, shims, filepath.Join(root, "log"),
		filepath.Join(w.Dir, ".cursor", "hooks"), filepath.Join(root, "tmp")} {
		mustMkdir(t, d)
	}
	w.env = []string{
		"PATH=" + shims + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + w.Home,
		"USER=e2e",
		"LOGNAME=e2e",
		"SHELL=/bin/sh",
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"TMPDIR=" + filepath.Join(root, "tmp"),
		"XDG_CONFIG_HOME=" + filepath.Join(w.Home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(w.Home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(w.Home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(w.Home, ".cache"),
		"AGENTHOOKS_CONFIG_DIR=" + filepath.Join(root, "agenthooks-config"),
		"AGENTHOOKS_STATE_DIR=" + filepath.Join(root, "agenthooks-state"),
		"AGENTHOOKS_ENTERPRISE_CONFIG=" + filepath.Join(root, "etc", "hooks.json"),
		"E2E_HOOK_LOG=" + w.hookLog,
		// A race-enabled agenthooks: no second of sleep at exit, and its
		// reports in files, which the test reads (an agent would take
		// them for a failing hook's output and carry on).
		"GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0 log_path="+filepath.Join(root, "log", "race")),
	}
	t.Cleanup(func() {
		reports, _ := filepath.Glob(filepath.Join(root, "log", "race*"))
		for _, r := range reports {
			b, _ := os.ReadFile(r)
			t.Errorf("agenthooks reported a data race (%s):\n%s", r, b)
		}
	})
	// The resident engines the agents' hooks started live in this
	// workspace's state folder (XDG_RUNTIME_DIR is unset): they are
	// stopped before it is removed (and before the race reports above
	// are read, so theirs are too).
	t.Cleanup(func() { fakemodel.StopEngines(filepath.Join(w.Home, ".local", "state", "agenthooks", "run")) })

	// git: a shim that records every call, refuses push, and passes the
	// rest to the real git (agents ask git about the project).
	shim := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + w.gitLog + "'\n" +
		"case \"$1\" in push) echo 'e2e git shim: push refused' >&2; exit 1 ;; esac\n"
	if real, err := exec.LookPath("git"); err == nil {
		shim += "exec '" + real + "' \"$@\"\n"
	} else {
		shim += "echo 'e2e git shim: no git on this machine' >&2; exit 1\n"
	}
	mustWrite(t, filepath.Join(shims, "git"), shim, 0o755)
	// Agents that run commands through a login shell (Codex: bash -lc)
	// get PATH from /etc/profile, which puts the system's folders first:
	// the user's profile puts the shims back in front.
	profile := "PATH='" + shims + "':\"$PATH\"; export PATH\n"
	mustWrite(t, filepath.Join(w.Home, ".profile"), profile, 0o644)
	mustWrite(t, filepath.Join(w.Home, ".bash_profile"), profile, 0o644)

	mustWrite(t, filepath.Join(w.Dir, ".cursor", "hooks.json"), hooksJSON, 0o644)
	mustWrite(t, filepath.Join(w.Dir, ".cursor", "hooks", "deny-push.sh"), denyPush, 0o755)
	mustWrite(t, filepath.Join(w.Dir, ".cursor", "hooks", "record.sh"), record, 0o755)
	w.agenthooks("trust", w.Dir)
	return w
}

// tempRoot is a folder for the test, removed when it ends. An agent's
// own late writes (a cache flushed on the way out, by a process that
// left the agent's process group) get a few seconds to finish before
// the removal counts as failed; what still stands is named.
func tempRoot(t *testing.T) string {
	t.Helper()
	root, err := os.MkdirTemp("", "ws-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for {
			err := os.RemoveAll(root)
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				var left []string
				_ = filepath.WalkDir(root, func(p string, _ os.DirEntry, _ error) error {
					left = append(left, p)
					return nil
				})
				t.Errorf("remove the test's folder: %v; still there: %q", err, left)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	return root
}

// Setenv adds or replaces a variable of the agent's environment.
func (w *workspace) Setenv(name, value string) {
	for i, kv := range w.env {
		if strings.HasPrefix(kv, name+"=") {
			w.env[i] = name + "=" + value
			return
		}
	}
	w.env = append(w.env, name+"="+value)
}

// agenthooks runs the agenthooks binary in the project and fails the test
// if it fails.
func (w *workspace) agenthooks(args ...string) string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := w.run(ctx, w.Bin, args...)
	if err != nil {
		w.t.Fatalf("agenthooks %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// run runs a command in the project with the workspace's environment, in
// a process group of its own that is killed when ctx is done, and when the
// test ends (agents leave children behind). It returns stdout and stderr
// together.
func (w *workspace) run(ctx context.Context, name string, args ...string) (string, error) {
	cmd, out, err := w.start(ctx, name, args...)
	if err == nil {
		err = cmd.Wait()
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("%w (%v)", err, ctx.Err())
	}
	return out.String(), err
}

// start starts what run runs, and returns it with its output so far.
func (w *workspace) start(ctx context.Context, name string, args ...string) (*exec.Cmd, *lockedBuffer, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = w.Dir
	cmd.Env = w.env
	cmd.Stdin = nil // /dev/null: nothing to answer a prompt with
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, out, err
	}
	// What the command left running (a hook still finishing) goes when
	// the test ends.
	w.t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	return cmd, out, nil
}

// gitCalls is what the git shim was called with, one call a line.
func (w *workspace) gitCalls() []string { return lines(w.gitLog) }

// sessionEnv is the values of $E2E_SESSION_MARK the hooks saw.
func (w *workspace) sessionEnv() []string { return lines(w.hookLog + ".env") }

// hookPayloads is what the hooks were given, in order.
func (w *workspace) hookPayloads() []string { return lines(w.hookLog) }

// steps lists the steps the hooks ran for, in order, with the command
// for the shell steps: "beforeShellExecution git push origin main".
func (w *workspace) steps() []string {
	var out []string
	for _, l := range w.hookPayloads() {
		var p struct {
			Step    string `json:"hook_event_name"`
			Command string `json:"command"`
		}
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			out = append(out, "(not JSON: "+l+")")
			continue
		}
		out = append(out, strings.TrimSpace(p.Step+" "+p.Command))
	}
	return out
}

func lines(path string) []string {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []string{"(" + err.Error() + ")"}
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

// lockedBuffer is a bytes.Buffer that the agent's stdout and stderr
// copiers can share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	mustMkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildOut  []byte
)

// binary builds the agenthooks client and agenthooks-engine beside it
// once per test process (with -race when the tests run with it, so the
// agents drive race-checked binaries), and returns the client: agents
// reach the hooks through it and the resident engine, as users' do.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agenthooks-e2e-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "agenthooks")
		args := []string{"build", "-o", dir + string(filepath.Separator)}
		if raceEnabled {
			args = append(args, "-race")
		}
		buildOut, buildErr = exec.Command("go", append(args, "../cmd/...")...).CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("build agenthooks: %v\n%s", buildErr, buildOut)
	}
	return binPath
}
