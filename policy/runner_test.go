package policy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

func TestFile(t *testing.T) {
	cases := []struct {
		cmd  string
		file string
		ok   bool
	}{
		{"agenthooks policy git.yaml", "git.yaml", true},
		{"  agenthooks\tpolicy   .cursor/git.yaml  ", ".cursor/git.yaml", true},
		{"/usr/local/bin/agenthooks policy /etc/p.yaml", "/etc/p.yaml", true},
		{"./bin/agenthooks policy p.yaml", "p.yaml", true},
		{`agenthooks policy "my policies/p.yaml"`, "my policies/p.yaml", true},
		{`agenthooks policy 'my policies/p.yaml'`, "my policies/p.yaml", true},
		{"agenthooks policy ./check", "./check", true},
		{"agenthooks policy check", "", false},
		{"agenthooks policy test", "", false},
		{"agenthooks policy check p.yaml", "", false},
		{"agenthooks policy", "", false},
		{"agenthooks policy a.yaml b.yaml", "", false},
		{"agenthooks policy --step x p.yaml", "", false},
		{"agenthooks policy -x", "", false},
		{"agenthooks run beforeShellExecution", "", false},
		{"agenthooks-dev policy p.yaml", "", false},
		{"notagenthooks policy p.yaml", "", false},
		{"agenthooks policy $HOME/p.yaml", "", false},
		{"agenthooks policy ~/p.yaml", "", false},
		{"agenthooks policy p.yaml | cat", "", false},
		{"agenthooks policy p.yaml > out", "", false},
		{"agenthooks policy p.yaml; rm x", "", false},
		{"agenthooks policy p.yaml &", "", false},
		{"agenthooks policy *.yaml", "", false},
		{"agenthooks policy p.yaml # c", "", false},
		{"X=1 agenthooks policy p.yaml", "", false},
		{`agenthooks policy "$F"`, "", false},
		{`agenthooks policy "unterminated`, "", false},
		{`agenthooks policy 'a'b`, "", false},
		{"agenthooks policy p\\ q.yaml", "", windowsPaths},
		{".cursor/hooks/block-git.sh", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		f, ok := File(c.cmd)
		if ok != c.ok || ok && f != c.file {
			t.Errorf("File(%q) = %q, %v; want %q, %v", c.cmd, f, ok, c.file, c.ok)
		}
	}
	if !isAgenthooks(`C:\Tools\AgentHooks.EXE`) {
		t.Error("a Windows path to agenthooks.exe is agenthooks")
	}
}

// spy is a fallback runner that counts its calls.
type spy struct{ calls atomic.Int32 }

func (s *spy) Run(context.Context, runner.Request) runner.Result {
	s.calls.Add(1)
	return runner.Result{Failure: runner.SpawnError, Detail: "the fallback ran"}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const denyRM = `rules:
  - name: no-rm
    steps: [beforeShellExecution]
    when: commands(command).exists(c, c.name == "rm")
    decision: deny
    user_message: v1
`

func request(dir, cmd, payload string) runner.Request {
	return runner.Request{
		Hook:    &config.Hook{Step: event.BeforeShellExecution, Type: config.TypeCommand, Command: cmd, Dir: dir},
		Step:    event.BeforeShellExecution,
		Payload: []byte(payload),
		Timeout: 5 * time.Second,
	}
}

func TestRunnerInProcess(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "p.yaml"), denyRM)
	fb := &spy{}
	r := Runner{Fallback: fb, Cache: &Cache{}}

	res := r.Run(context.Background(), request(dir, "agenthooks policy p.yaml", `{"command":"sudo rm -rf /"}`))
	if res.Failure != runner.OK || res.Response == nil || res.Response.Permission != event.Deny || res.Response.UserMessage != "v1" {
		t.Fatalf("result %+v", res)
	}
	if got := string(res.Stdout); got != `{"permission":"deny","user_message":"v1"}`+"\n" {
		t.Errorf("stdout %q", got)
	}
	res = r.Run(context.Background(), request(dir, "agenthooks policy p.yaml", `{"command":"ls"}`))
	if res.Failure != runner.OK || res.Response != nil || string(res.Stdout) != "{}\n" {
		t.Errorf("no opinion: %+v", res)
	}
	if fb.calls.Load() != 0 {
		t.Errorf("the fallback ran %d times for a policy hook", fb.calls.Load())
	}
	// Anything else goes to the fallback.
	res = r.Run(context.Background(), request(dir, "./hook.sh", `{}`))
	if fb.calls.Load() != 1 || res.Detail != "the fallback ran" {
		t.Errorf("fallback: %d calls, %+v", fb.calls.Load(), res)
	}
}

func TestRunnerCache(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.yaml")
	writeFile(t, file, denyRM)
	c := &Cache{}
	p1, err := c.Get(file)
	if err != nil {
		t.Fatal(err)
	}
	if p2, _ := c.Get(file); p2 != p1 {
		t.Error("an unchanged file was compiled again")
	}
	// Relative and absolute spellings share the entry.
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, file)
	if err == nil {
		if p3, _ := c.Get(rel); p3 != p1 {
			t.Error("a relative path to the same file was compiled again")
		}
	}
	// A new mtime with the same content: hashed, not recompiled.
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
	if p4, _ := c.Get(file); p4 != p1 {
		t.Error("touching the file recompiled it")
	}
	// New content: recompiled, and the new rules decide.
	writeFile(t, file, strings.Replace(denyRM, "v1", "v2 longer", 1))
	p5, err := c.Get(file)
	if err != nil || p5 == p1 || p5.Rules[0].UserMessage != "v2 longer" {
		t.Fatalf("changed file: %v, %v", p5, err)
	}
	// Same size, new content, new mtime: recompiled too.
	writeFile(t, file, strings.Replace(denyRM, "v1", "v3 longer", 1))
	evenLater := later.Add(2 * time.Second)
	if err := os.Chtimes(file, evenLater, evenLater); err != nil {
		t.Fatal(err)
	}
	if p6, _ := c.Get(file); p6 == p5 || p6.Rules[0].UserMessage != "v3 longer" {
		t.Error("same-size change not seen")
	}
	// A broken file: its error is cached and reported with a position,
	// until the file is fixed.
	writeFile(t, file, strings.Replace(denyRM, `c.name == "rm"`, `c.name ==`, 1))
	_, err1 := c.Get(file)
	_, err2 := c.Get(file)
	var e1, e2 Errors
	if !errors.As(err1, &e1) || !errors.As(err2, &e2) || &e1[0] != &e2[0] || !strings.Contains(err1.Error(), file+":4:") {
		t.Errorf("broken file: the error is not cached with its position: %v / %v", err1, err2)
	}
	writeFile(t, file, denyRM+"\n")
	if p, err := c.Get(file); err != nil || p == nil {
		t.Errorf("fixed file: %v", err)
	}
	// A deleted file.
	os.Remove(file)
	if _, err := c.Get(file); err == nil || !strings.Contains(err.Error(), "cannot read") {
		t.Errorf("deleted file: %v", err)
	}
}

func TestRunnerFailures(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bad.yaml"), "rules:\n  - name: x\n    steps: [beforeShellExecution]\n    when: nosuch\n    decision: deny\n")
	writeFile(t, filepath.Join(dir, "err.yaml"), "rules:\n  - name: x\n    steps: [beforeShellExecution]\n    when: input.nokey == 1\n    decision: deny\n")
	r := Runner{Fallback: &spy{}, Cache: &Cache{}}
	res := r.Run(context.Background(), request(dir, "agenthooks policy bad.yaml", `{}`))
	if res.Failure != runner.SpawnError || !strings.Contains(res.Detail, "bad.yaml:4:11: rules[0].when: undeclared reference to 'nosuch'") {
		t.Errorf("compile error: %+v", res)
	}
	res = r.Run(context.Background(), request(dir, "agenthooks policy missing.yaml", `{}`))
	if res.Failure != runner.SpawnError || !strings.Contains(res.Detail, "missing.yaml") {
		t.Errorf("missing file: %+v", res)
	}
	res = r.Run(context.Background(), request(dir, "agenthooks policy err.yaml", `{}`))
	if res.Failure != runner.ExitStatus || res.ExitCode != 1 || !strings.Contains(string(res.Stderr), "no such key: nokey") {
		t.Errorf("evaluation error: %+v", res)
	}
	res = r.Run(context.Background(), request(dir, "agenthooks policy err.yaml", `not json`))
	if res.Failure != runner.ExitStatus {
		t.Errorf("bad payload: %+v", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	writeFile(t, filepath.Join(dir, "ok.yaml"), denyRM)
	res = r.Run(ctx, request(dir, "agenthooks policy ok.yaml", `{"command":"rm"}`))
	if res.Failure != runner.Canceled {
		t.Errorf("canceled: %+v", res)
	}
	// The timeout applies to large payloads (small ones cannot take long).
	big := `{"command":"rm","content":"` + strings.Repeat("x", 100<<10) + `"}`
	req := request(dir, "agenthooks policy ok.yaml", big)
	req.Timeout = time.Nanosecond
	res = r.Run(context.Background(), req)
	if res.Failure != runner.Timeout {
		t.Errorf("timeout: %+v", res)
	}
}

// TestEngineIntegration runs policies through the engine: registered as
// the command runner, without changing the engine.
func TestEngineIntegration(t *testing.T) {
	home := t.TempDir()
	cursor := filepath.Join(home, ".cursor")
	if err := os.MkdirAll(cursor, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(cursor, "p.yaml"), denyRM)
	writeFile(t, filepath.Join(cursor, "broken.yaml"), "rules: 1\n")
	writeFile(t, filepath.Join(cursor, "hooks.json"), `{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [{ "command": "agenthooks policy p.yaml" }],
    "beforeReadFile": [{ "command": "agenthooks policy broken.yaml", "failClosed": true }],
    "beforeMCPExecution": [{ "command": "agenthooks policy broken.yaml" }]
  }
}`)
	fb := &spy{}
	e, err := engine.Load(engine.Options{
		Locations: config.Locations{EnterpriseFile: filepath.Join(home, "none.json"), Home: home},
		Runners:   map[string]runner.Runner{config.TypeCommand: Runner{Fallback: fb, Cache: &Cache{}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.Run(context.Background(), event.BeforeShellExecution, map[string]any{"command": "bash -c 'rm -rf x'", "cwd": home})
	if err != nil || d.Permission != event.Deny || d.UserMessage != "v1" || !d.Blocked() {
		t.Errorf("deny: %+v, %v", d, err)
	}
	d, _ = e.Run(context.Background(), event.BeforeShellExecution, map[string]any{"command": "ls", "cwd": home})
	if d.Permission != event.NoOpinion {
		t.Errorf("ls: %q", d.Permission)
	}
	// A broken policy blocks a failClosed hook, and is a logged failure
	// (no opinion) otherwise.
	d, _ = e.Run(context.Background(), event.BeforeReadFile, map[string]any{"file_path": "/x", "content": ""})
	if !d.Blocked() || !strings.Contains(d.UserMessage, "spawn_error") || !strings.Contains(d.UserMessage, "broken.yaml:1:8") {
		t.Errorf("failClosed: %+v", d)
	}
	d, _ = e.Run(context.Background(), event.BeforeMCPExecution, map[string]any{"tool_name": "x", "tool_input": "{}"})
	if d.Blocked() || d.Hooks[0].Said != "failed" {
		t.Errorf("fail-open: %+v", d)
	}
	if fb.calls.Load() != 0 {
		t.Errorf("the process runner ran %d times", fb.calls.Load())
	}
}

// TestRunnerConcurrent: decisions in parallel while the policy file is
// replaced (atomically, as editors save) always see a whole version.
func TestRunnerConcurrent(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.yaml")
	writeFile(t, file, denyRM)
	r := Runner{Fallback: &spy{}, Cache: &Cache{}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			seen := 0
			for ctx.Err() == nil {
				res := r.Run(context.Background(), request(dir, "agenthooks policy p.yaml", `{"command":"rm x"}`))
				if res.Failure != runner.OK || res.Response == nil || !strings.HasPrefix(res.Response.UserMessage, "v") {
					errs <- fmt.Errorf("result %+v", res)
					return
				}
				seen++
			}
			errs <- nil
		}()
	}
	for i := range 50 {
		tmp := filepath.Join(dir, fmt.Sprintf("p.%d.tmp", i))
		writeFile(t, tmp, strings.Replace(denyRM, "v1", fmt.Sprintf("v%d", i+2), 1))
		if err := os.Rename(tmp, file); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	res := r.Run(context.Background(), request(dir, "agenthooks policy p.yaml", `{"command":"rm x"}`))
	if res.Response == nil || res.Response.UserMessage != "v51" {
		t.Errorf("after the last save: %+v", res.Response)
	}
}
