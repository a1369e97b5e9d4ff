package runner_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

// anyExit marks a case whose exit code depends on timing.
const anyExit = -99

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	n := 0
	script := func(body string) string {
		n++
		p := filepath.Join(dir, "hook"+strconv.Itoa(n)+".sh")
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name     string
		command  string
		dir      string
		cap      int64
		failure  runner.Failure
		blocked  bool
		perm     event.Permission
		detail   string
		exitCode int
		warning  string
	}{
		{name: "answer", command: script(`echo '{"permission":"ask"}'`), perm: event.Ask},
		{name: "bad working directory", command: "true", dir: filepath.Join(dir, "missing"), failure: runner.SpawnError, detail: "missing", exitCode: -1},
		{name: "over the stdout cap", command: script(`head -c 5000 /dev/zero`), cap: 1024, failure: runner.OutputTooLarge, detail: "stdout", exitCode: anyExit},
		{name: "exit 2, invalid JSON: still a block", command: script(`echo 'not json'; exit 2`), blocked: true, exitCode: 2},
		{name: "exit 2 with JSON keeps its messages", command: script(`echo '{"permission":"allow","agent_message":"x"}'; exit 2`), blocked: true, perm: event.Allow, exitCode: 2},
		{name: "exit 3 names the status and stderr", command: script(`echo 'first line' >&2; echo second >&2; exit 3`), failure: runner.ExitStatus, detail: "exited with status 3: first line", exitCode: 3},
		{name: "a deny before exit 3 stands", command: script(`echo '{"permission":"deny"}'; exit 3`), perm: event.Deny, exitCode: 3, warning: "exited with status 3 but printed an answer that denies"},
		{name: "a camelCase deny before exit 1 stands", command: script(`echo '{"permission":"deny","userMessage":"no","agentMessage":"not that"}'; exit 1`), perm: event.Deny, exitCode: 1, warning: "status 1"},
		{name: "an ask before exit 1 stands", command: script(`echo '{"permission":"ask"}'; exit 1`), perm: event.Ask, exitCode: 1, warning: "asks"},
		{name: "an allow before exit 1 is still a failure", command: script(`echo '{"permission":"allow"}'; exit 1`), failure: runner.ExitStatus, detail: "exited with status 1", exitCode: 1},
		{name: "signal", command: script(`kill -TERM $$`), failure: runner.ExitStatus, detail: "killed by signal", exitCode: -1},
		{name: "invalid output names the problem", command: script(`echo '{"permission":1}'`), failure: runner.InvalidOutput, detail: "permission"},
		{name: "timeout", command: script(`sleep 10`), failure: runner.Timeout, detail: "timed out after 200ms", exitCode: -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.dir
			if d == "" {
				d = dir
			}
			h := &config.Hook{Step: event.PreToolUse, Type: config.TypeCommand, Command: c.command, Dir: d}
			res := runner.Command{StdoutCap: c.cap}.Run(t.Context(), runner.Request{
				Hook: h, Step: event.PreToolUse, Payload: []byte(`{}`), Env: os.Environ(), Timeout: 200 * time.Millisecond,
			})
			if res.Failure != c.failure || res.Blocked != c.blocked || (c.exitCode != anyExit && res.ExitCode != c.exitCode) {
				t.Fatalf("got failure %q blocked %v exit %d (%s), want %q %v %d", res.Failure, res.Blocked, res.ExitCode, res.Detail, c.failure, c.blocked, c.exitCode)
			}
			if !strings.Contains(res.Detail, c.detail) {
				t.Fatalf("detail %q lacks %q", res.Detail, c.detail)
			}
			var perm event.Permission
			if res.Response != nil {
				perm = res.Response.Permission
			}
			if perm != c.perm {
				t.Fatalf("permission %q, want %q", perm, c.perm)
			}
			if (c.warning == "") != (res.Warning == "") || !strings.Contains(res.Warning, c.warning) {
				t.Fatalf("warning %q, want one with %q", res.Warning, c.warning)
			}
			if c.warning != "" && (res.Response.UserMessage == "no") != strings.Contains(c.name, "camelCase") {
				t.Fatalf("user message %q", res.Response.UserMessage)
			}
		})
	}
}
