package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/agenthooks/agenthooks/internal/needs"
)

// The fault matrix: every fault of agenthooks' own that once let a denied
// action through, against one user hook that is failClosed and denies
// every shell command, for `run` and each `run --from AGENT`. Whatever
// breaks, the push is blocked, in the agent's own blocking form. Each case
// is a real process of the real entry point (the test binary, as the
// testscript scripts run it).

// faultAgent is one way agenthooks is asked about `git push`.
type faultAgent struct {
	name string
	args []string
	// payload builds the agent's payload; extra, when not empty, is a JSON
	// value put beside the command in the tool's arguments.
	payload func(cwd, extra string) string
	// blocked reports whether the answer stops the push.
	blocked func(code int, stdout, stderr string) bool
}

var faultAgents = []faultAgent{
	{name: "cursor", args: []string{"run", "beforeShellExecution"},
		payload: func(cwd, extra string) string {
			return fmt.Sprintf(`{"command":"git push","cwd":%q%s}`, cwd, field("x", extra))
		},
		blocked: func(code int, out, _ string) bool {
			return code == 0 && strings.Contains(out, `"permission":"deny"`)
		}},
	{name: "claude", args: []string{"run", "--from", "claude"},
		payload: func(cwd, extra string) string {
			return fmt.Sprintf(`{"session_id":"c1","hook_event_name":"PreToolUse","cwd":%q,"tool_name":"Bash","tool_input":{"command":"git push"%s}}`, cwd, field("x", extra))
		},
		blocked: claudeBlocked},
	{name: "codex", args: []string{"run", "--from", "codex"},
		payload: func(cwd, extra string) string {
			return fmt.Sprintf(`{"session_id":"x1","turn_id":"t1","model":"gpt-5","hook_event_name":"PreToolUse","cwd":%q,"tool_name":"Bash","tool_input":{"command":"git push"%s},"tool_use_id":"call_1"}`, cwd, field("x", extra))
		},
		blocked: claudeBlocked},
	{name: "gemini", args: []string{"run", "--from", "gemini"},
		payload: func(cwd, extra string) string {
			return fmt.Sprintf(`{"session_id":"g1","hook_event_name":"BeforeTool","cwd":%q,"tool_name":"run_shell_command","tool_input":{"command":"git push"%s}}`, cwd, field("x", extra))
		},
		blocked: func(code int, out, _ string) bool {
			return code == 2 || strings.Contains(out, `"decision":"deny"`)
		}},
	{name: "copilot", args: []string{"run", "--from", "copilot", "preToolUse"},
		payload: func(cwd, extra string) string {
			args := `{"command":"git push"` + field("x", extra) + `}`
			b, _ := json.Marshal(args)
			return fmt.Sprintf(`{"sessionId":"p1","timestamp":1760000000000,"cwd":%q,"toolName":"bash","toolArgs":%s}`, cwd, b)
		},
		blocked: func(code int, out, _ string) bool {
			return code == 0 && strings.Contains(out, `"permissionDecision":"deny"`)
		}},
	{name: "opencode", args: []string{"run", "--from", "opencode"},
		payload: func(cwd, extra string) string {
			return fmt.Sprintf(`{"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"o1","callID":"k1"},"output":{"args":{"command":"git push"%s}}}`, field("x", extra))
		},
		blocked: func(code int, out, _ string) bool {
			return code == 2 && strings.Contains(out, `"error"`)
		}},
}

func field(k, v string) string {
	if v == "" {
		return ""
	}
	return fmt.Sprintf(",%q:%s", k, v)
}

// claudeBlocked: Claude Code and Codex block on a deny decision or exit 2.
func claudeBlocked(code int, out, _ string) bool {
	return code == 2 || (code == 0 && strings.Contains(out, `"permissionDecision":"deny"`))
}

// faultEnv is one case's machine: its dirs, environment and payload.
type faultEnv struct {
	t     *testing.T
	root  string // the case's own directory
	env   map[string]string
	extra string // JSON beside the command, for deep payloads
	// stdin, when set, replaces the payload (a file to read).
	stdin  string
	asUser bool // run as nobody
	// rootsField, when set, is the payload's workspace_roots.
	rootsField string
}

type faultCase struct {
	name string
	// warn is what `run`'s stderr must say about the fault.
	warn string
	// hookRuns says the deny hook itself must have answered: agenthooks
	// read what it needed despite the fault.
	hookRuns bool
	// root says the case needs root (mounts, another user).
	root  bool
	setup func(f *faultEnv)
}

var faultCases = []faultCase{
	{name: "no fault", hookRuns: true, setup: func(*faultEnv) {}},
	{name: "state dir is a file", hookRuns: true, warn: `state store cannot be used`, setup: func(f *faultEnv) {
		f.write("state", "not a directory")
	}},
	{name: "state dir read-only (read-only mount)", root: true, setup: func(f *faultEnv) {
		f.mountTmpfs("state", "size=1m")
		f.remountRO("state")
	}},
	{name: "state dir read-only as a non-root user", root: true, setup: func(f *faultEnv) {
		f.mkdir("state", 0o555)
		f.asUser = true
	}},
	{name: "state dir full", root: true, setup: func(f *faultEnv) {
		f.mountTmpfs("state", "size=64k")
		f.fill("state")
	}},
	{name: "state.db corrupt", hookRuns: true, warn: `state store cannot be used`, setup: func(f *faultEnv) {
		f.mkdir("state", 0o700)
		f.write("state/state.db", strings.Repeat("garbage, not SQLite\n", 400))
	}},
	{name: "trust store garbage", hookRuns: true, warn: `trust store cannot be read`, setup: func(f *faultEnv) {
		f.mkdir("config", 0o700)
		f.write("config/trust.json", "{{{ not json")
	}},
	{name: "config dir is a file", hookRuns: true, warn: `trust store cannot be read`, setup: func(f *faultEnv) {
		f.write("config", "not a directory")
	}},
	{name: "AGENTHOOKS_LLM_PROVIDER=bogus", hookRuns: true, warn: `AGENTHOOKS_LLM_PROVIDER`, setup: func(f *faultEnv) { f.env["AGENTHOOKS_LLM_PROVIDER"] = "bogus" }},
	{name: "AGENTHOOKS_LLM_API_KEY_ENV not a name", warn: `AGENTHOOKS_LLM_API_KEY_ENV`, setup: func(f *faultEnv) { f.env["AGENTHOOKS_LLM_API_KEY_ENV"] = "sk-123 456" }},
	{name: "AGENTHOOKS_LLM_BASE_URL not a URL", warn: `AGENTHOOKS_LLM_BASE_URL`, setup: func(f *faultEnv) { f.env["AGENTHOOKS_LLM_BASE_URL"] = "::not a url" }},
	{name: "AGENTHOOKS_LOG_MAX_BYTES=lots", warn: `AGENTHOOKS_LOG_MAX_BYTES`, setup: func(f *faultEnv) { f.env["AGENTHOOKS_LOG_MAX_BYTES"] = "lots" }},
	{name: "AGENTHOOKS_REDACT_BYTES=-1", warn: `AGENTHOOKS_REDACT_BYTES`, setup: func(f *faultEnv) { f.env["AGENTHOOKS_REDACT_BYTES"] = "-1" }},
	{name: "AGENTHOOKS_LOG_RETENTION=forever", hookRuns: true, warn: `AGENTHOOKS_LOG_RETENTION`, setup: func(f *faultEnv) { f.env["AGENTHOOKS_LOG_RETENTION"] = "forever" }},
	{name: "AGENTHOOKS_LOG_MAX_RECORDS=-5", warn: `AGENTHOOKS_LOG_MAX_RECORDS`, setup: func(f *faultEnv) { f.env["AGENTHOOKS_LOG_MAX_RECORDS"] = "-5" }},
	{name: "AGENTHOOKS_REDACT=bogus", warn: `AGENTHOOKS_REDACT`, setup: func(f *faultEnv) { f.env["AGENTHOOKS_REDACT"] = "bogus" }},
	{name: "AGENTHOOKS_STATE_DIR with ?", setup: func(f *faultEnv) { f.env["AGENTHOOKS_STATE_DIR"] = filepath.Join(f.root, "st?ate") }},
	{name: "tool_input 10,001 deep", hookRuns: true, setup: func(f *faultEnv) { f.extra = deep(10_001) }},
	{name: "tool_input 100,000 deep", hookRuns: true, setup: func(f *faultEnv) { f.extra = deep(100_000) }},
	{name: "workspace_roots a string", hookRuns: true, warn: `workspace_roots is not a list`, setup: func(f *faultEnv) { f.rootsField = `"/tmp"` }},
	{name: "workspace_roots holds numbers", hookRuns: true, warn: `workspace_roots is not a list`, setup: func(f *faultEnv) { f.rootsField = `[1,2]` }},
	{name: "300 MiB payload", warn: `could not decide`, setup: func(f *faultEnv) { f.stdin = bigPayload(f.t) }},
	{name: "hooks file cannot be read", setup: func(f *faultEnv) {
		if err := os.Remove(f.path("home/.cursor/hooks.json")); err != nil {
			f.t.Fatal(err)
		}
		f.mkdir("home/.cursor/hooks.json", 0o755)
	}},
	{name: "hooks file cut short", setup: func(f *faultEnv) {
		f.write("home/.cursor/hooks.json", userHooks[:len(userHooks)-7])
	}},
	{name: "panic", warn: `could not decide .*panic`, setup: func(f *faultEnv) { f.env["AGENTHOOKS_TEST_PANIC"] = "run" }},
	{name: "not JSON at all", warn: `could not decide`, setup: func(f *faultEnv) {
		f.write("garbage.txt", "\x00\x01 this is no payload")
		f.stdin = filepath.Join(f.root, "garbage.txt")
	}},
}

// userHooks is the one hook of every case: it denies every shell command,
// and is failClosed, so a failure to run it blocks as well.
const userHooks = `{"version":1,"hooks":{"beforeShellExecution":[{"command":"./deny.sh","failClosed":true}]}}`

const denyScript = `#!/bin/sh
cat >/dev/null
echo '{"permission":"deny","user_message":"no shell commands","agent_message":"no shell commands"}'
`

func TestFaultMatrix(t *testing.T) {
	bin := agenthooksBinary(t)
	bigDir, bigOnce = t.TempDir(), sync.Once{} // the 300 MiB payload, made when a case needs it
	for _, fc := range faultCases {
		t.Run(fc.name, func(t *testing.T) {
			if fc.root && os.Geteuid() != 0 {
				needs.Missing(t, "needs root to mount a tmpfs or run as another user")
			}
			for _, a := range faultAgents {
				t.Run(a.name, func(t *testing.T) {
					f := newFaultEnv(t)
					fc.setup(f)
					code, out, errOut := f.run(bin, a)
					t.Logf("%s / %s: exit %d, stdout %s, stderr %s", fc.name, a.name, code, clipLine(out), clipLine(errOut))
					if !a.blocked(code, out, errOut) {
						t.Errorf("git push was not blocked: exit %d\nstdout: %s\nstderr: %s", code, clipLine(out), clipLine(errOut))
					}
					if fc.hookRuns && !strings.Contains(out, "no shell commands") {
						t.Errorf("the deny hook did not answer (agenthooks did not read the payload it needed): %s", clipLine(out))
					}
					if fc.warn != "" && a.name == "cursor" && !regexp.MustCompile(fc.warn).MatchString(errOut) {
						t.Errorf("stderr does not warn %q: %s", fc.warn, clipLine(errOut))
					}
				})
			}
		})
	}
}

// agenthooksBinary copies the test binary, which is agenthooks under that
// name (TestMain), where every user can run it.
func agenthooksBinary(t *testing.T) string {
	dir := t.TempDir()
	openUp(t, dir)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	bin := filepath.Join(dir, "agenthooks")
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return bin
}

// openUp lets every user through dir and its parents (a case runs as
// nobody); the test's temporary directories are private otherwise.
func openUp(t *testing.T, dir string) {
	for d := dir; d != "/" && d != "."; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o011 != 0o011 {
			if err := os.Chmod(d, fi.Mode().Perm()|0o011); err != nil && os.Geteuid() == 0 {
				t.Fatal(err)
			}
		}
	}
}

func newFaultEnv(t *testing.T) *faultEnv {
	root := t.TempDir()
	openUp(t, root)
	if err := os.Chmod(root, 0o777); err != nil {
		t.Fatal(err)
	}
	f := &faultEnv{t: t, root: root, env: map[string]string{}}
	f.mkdir("home/.cursor", 0o755)
	f.mkdir("work", 0o755)
	f.write("home/.cursor/hooks.json", userHooks)
	f.write("home/.cursor/deny.sh", denyScript)
	if err := os.Chmod(filepath.Join(root, "home/.cursor/deny.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *faultEnv) path(rel string) string { return filepath.Join(f.root, rel) }

func (f *faultEnv) write(rel, content string) {
	if err := os.WriteFile(f.path(rel), []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *faultEnv) mkdir(rel string, mode os.FileMode) {
	if err := os.MkdirAll(f.path(rel), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Chmod(f.path(rel), mode); err != nil {
		f.t.Fatal(err)
	}
}

func (f *faultEnv) mountTmpfs(rel, opts string) {
	f.mkdir(rel, 0o700)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts+",mode=0700", "tmpfs", f.path(rel)).CombinedOutput(); err != nil {
		needs.Missing(f.t, fmt.Sprintf("cannot mount a tmpfs here: %v: %s", err, out))
	}
	f.t.Cleanup(func() { _ = syscall.Unmount(f.path(rel), syscall.MNT_DETACH) })
}

func (f *faultEnv) remountRO(rel string) {
	if out, err := exec.Command("mount", "-o", "remount,ro", f.path(rel)).CombinedOutput(); err != nil {
		f.t.Fatalf("remount read-only: %v: %s", err, out)
	}
}

// fill writes into dir until its file system is full.
func (f *faultEnv) fill(rel string) {
	fh, err := os.Create(filepath.Join(f.path(rel), "filler"))
	if err != nil {
		f.t.Fatal(err)
	}
	defer fh.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := fh.Write(buf); err != nil {
			if errors.Is(err, syscall.ENOSPC) {
				return
			}
			f.t.Fatal(err)
		}
	}
}

// run runs agenthooks for the agent in the case's machine.
func (f *faultEnv) run(bin string, a faultAgent) (int, string, string) {
	cmd := exec.Command(bin, a.args...)
	cmd.Dir = f.path("work")
	env := map[string]string{
		"PATH":                         os.Getenv("PATH"),
		"HOME":                         f.path("home"),
		"XDG_CONFIG_HOME":              f.path("xdg"),
		"AGENTHOOKS_CONFIG_DIR":        f.path("config"),
		"AGENTHOOKS_STATE_DIR":         f.path("state"),
		"AGENTHOOKS_ENTERPRISE_CONFIG": f.path("etc/hooks.json"),
		"GORACE":                       "atexit_sleep_ms=0",
	}
	for k, v := range f.env {
		env[k] = v
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if f.stdin != "" {
		in, err := os.Open(f.stdin)
		if err != nil {
			f.t.Fatal(err)
		}
		defer in.Close()
		cmd.Stdin = in
	} else {
		p := a.payload(f.path("work"), f.extra)
		if f.rootsField != "" {
			p = `{"workspace_roots":` + f.rootsField + "," + p[1:]
		}
		cmd.Stdin = strings.NewReader(p)
	}
	if f.asUser {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			f.t.Fatalf("run %v: %v", a.args, err)
		}
		code = ee.ExitCode()
	}
	return code, out.String(), errOut.String()
}

// deep is n nested JSON arrays.
func deep(n int) string {
	return strings.Repeat("[", n) + strings.Repeat("]", n)
}

// bigPayload is a file with a 300 MiB beforeShellExecution payload,
// made once per test binary in bigDir.
func bigPayload(t *testing.T) string {
	bigOnce.Do(func() {
		bigPath = filepath.Join(bigDir, "big.json")
		fh, err := os.Create(bigPath)
		if err != nil {
			bigErr = err
			return
		}
		defer fh.Close()
		if _, err := fh.WriteString(`{"command":"git push","tool_name":"Bash","hook_event_name":"PreToolUse","tool_input":{"command":"git push"},"content":"`); err != nil {
			bigErr = err
			return
		}
		chunk := bytes.Repeat([]byte("a"), 1<<20)
		for range 300 {
			if _, err := fh.Write(chunk); err != nil {
				bigErr = err
				return
			}
		}
		_, bigErr = fh.WriteString(`"}`)
	})
	if bigErr != nil {
		t.Fatal(bigErr)
	}
	return bigPath
}

var (
	bigDir  string
	bigOnce sync.Once
	bigPath string
	bigErr  error
)

func clipLine(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", " | ")
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// A hook whose child leaves its process group but keeps the hook's
// stdout is gone when `run` answers; a fire-and-forget job that let go of
// its output lives on.
func TestRunLeavesNoSurvivors(t *testing.T) {
	bin := agenthooksBinary(t)
	f := newFaultEnv(t)
	held := fmt.Sprintf("300.%d1", os.Getpid())
	freed := fmt.Sprintf("300.%d2", os.Getpid())
	hooks := fmt.Sprintf(`{"version":1,"hooks":{"beforeShellExecution":[{"command":"setsid sleep %s & setsid sleep %s >/dev/null 2>&1 </dev/null & echo '{\"permission\":\"deny\"}'","failClosed":true}]}}`, held, freed)
	f.write("home/.cursor/hooks.json", hooks)
	t.Cleanup(func() { killSleeps(freed); killSleeps(held) })
	code, out, errOut := f.run(bin, faultAgents[0])
	if code != 0 || !strings.Contains(out, `"permission":"deny"`) {
		t.Fatalf("exit %d, stdout %s, stderr %s", code, out, errOut)
	}
	if pids := sleeps(held); len(pids) > 0 {
		t.Errorf("the child that kept the hook's stdout survived: pids %v", pids)
	}
	if pids := sleeps(freed); len(pids) == 0 {
		t.Errorf("the fire-and-forget job was killed")
	}
}

// sleeps lists the pids whose command line is `sleep arg`.
func sleeps(arg string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range dirs {
		b, err := os.ReadFile(p)
		if err != nil || string(b) != "sleep\x00"+arg+"\x00" {
			continue
		}
		var pid int
		if _, err := fmt.Sscanf(p, "/proc/%d/cmdline", &pid); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

func killSleeps(arg string) {
	for _, pid := range sleeps(arg) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// 45 runs of a 10 MB beforeReadFile through the real CLI keep the state
// directory under 8 MiB (the defaults: payload once per run, big fields
// cut to 4 KiB), and the execution log holds every run.
func TestLogStaysBounded(t *testing.T) {
	bin := agenthooksBinary(t)
	f := newFaultEnv(t)
	f.write("home/.cursor/hooks.json", `{"version":1,"hooks":{"beforeReadFile":[{"command":"cat >/dev/null"},{"command":"cat >/dev/null; echo '{\"permission\":\"allow\"}'"}]}}`)
	content := strings.Repeat("0123456789abcdef", 10<<20/16)
	payload := fmt.Sprintf(`{"file_path":"/src/app/big.txt","content":%q}`, content)
	f.write("big.json", payload)
	f.stdin = f.path("big.json")
	read := faultAgent{name: "read", args: []string{"run", "beforeReadFile"}}
	for i := range 45 {
		if code, out, errOut := f.run(bin, read); code != 0 || !strings.Contains(out, `"permission":"allow"`) {
			t.Fatalf("run %d: exit %d, stdout %s, stderr %s", i, code, clipLine(out), clipLine(errOut))
		}
	}
	var size int64
	entries, err := os.ReadDir(f.path("state"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			size += fi.Size()
		}
	}
	t.Logf("state directory after 45 runs of a 10 MB read: %d bytes", size)
	if size > 8<<20 {
		t.Errorf("state directory holds %d bytes, want under 8 MiB", size)
	}
	f.stdin = ""
	code, out, _ := f.run(bin, faultAgent{args: []string{"log", "-n", "0", "--json"}, payload: func(string, string) string { return "" }})
	if n := strings.Count(out, `"step":"beforeReadFile"`); code != 0 || n != 90 {
		t.Errorf("log has %d beforeReadFile records (exit %d), want 90", n, code)
	}
}
