package engine_test

import (
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

// TestResultTable covers every row of the table of one hook's results
// (docs/semantics.md, one hook) for a gating step, fail-open and
// fail-closed.
func TestResultTable(t *testing.T) {
	rows := []struct {
		name    string
		body    string
		timeout float64
		failure runner.Failure
		// open and closed are the merged permissions without and with
		// failClosed.
		open, closed event.Permission
		user         string // expected user message (fail-open), "" for none
	}{
		{name: "exit 0 empty", body: `cat >/dev/null; exit 0`, open: "", closed: ""},
		{name: "exit 0 whitespace", body: `printf '  \n\t\n'`, open: "", closed: ""},
		{name: "exit 0 valid allow", body: `echo '{"permission":"allow"}'`, open: event.Allow, closed: event.Allow},
		{name: "exit 0 valid deny", body: `echo '{"permission":"deny","user_message":"no"}'`, open: event.Deny, closed: event.Deny, user: "no"},
		{name: "exit 0 not JSON", body: `echo 'hello'`, failure: runner.InvalidOutput, open: "", closed: event.Deny},
		{name: "exit 0 wrong types", body: `echo '{"permission":true}'`, failure: runner.InvalidOutput, open: "", closed: event.Deny},
		{name: "exit 0 unknown permission", body: `echo '{"permission":"maybe"}'`, failure: runner.InvalidOutput, open: "", closed: event.Deny},
		{name: "exit 2 with JSON", body: `echo '{"user_message":"json says no"}'; echo 'stderr says no' >&2; exit 2`, open: event.Deny, closed: event.Deny, user: "json says no"},
		{name: "exit 2 stderr only", body: `echo 'stderr says no' >&2; exit 2`, open: event.Deny, closed: event.Deny, user: "stderr says no"},
		{name: "exit 2 nothing", body: `exit 2`, open: event.Deny, closed: event.Deny},
		{name: "exit 1", body: `echo boom >&2; exit 1`, failure: runner.ExitStatus, open: "", closed: event.Deny},
		{name: "exit 127 not found", body: `/no/such/program`, failure: runner.ExitStatus, open: "", closed: event.Deny},
		{name: "killed by signal", body: `kill -9 $$`, failure: runner.ExitStatus, open: "", closed: event.Deny},
		{name: "timeout", body: `sleep 30`, timeout: 0.3, failure: runner.Timeout, open: "", closed: event.Deny},
	}
	for _, r := range rows {
		for _, failClosed := range []bool{false, true} {
			name := r.name + "/fail-open"
			if failClosed {
				name = r.name + "/fail-closed"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				f := newFixture(t)
				h := hk{"command": f.script("h.sh", r.body), "failClosed": failClosed}
				if r.timeout > 0 {
					h["timeout"] = r.timeout
				}
				f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: {h}})
				e := f.engine()
				d := run(t, e, event.BeforeShellExecution, `{"command":"ls","cwd":"/"}`)
				if len(d.Hooks) != 1 {
					t.Fatalf("%d hooks ran, want 1", len(d.Hooks))
				}
				if got := d.Hooks[0].Result.Failure; got != r.failure {
					t.Fatalf("failure = %q, want %q (detail %q)", got, r.failure, d.Hooks[0].Result.Detail)
				}
				want := r.open
				if failClosed {
					want = r.closed
				}
				if d.Permission != want {
					t.Fatalf("permission = %q, want %q", d.Permission, want)
				}
				switch {
				case failClosed && r.failure != runner.OK:
					if !strings.Contains(d.UserMessage, "h.sh") || !strings.Contains(d.UserMessage, string(r.failure)) {
						t.Fatalf("fail-closed message %q does not name the hook and the failure", d.UserMessage)
					}
				case d.UserMessage != r.user:
					t.Fatalf("user message = %q, want %q", d.UserMessage, r.user)
				}
				log := e.Log()
				if len(log) != 1 {
					t.Fatalf("%d log records, want 1", len(log))
				}
				if log[0].Failure != string(r.failure) || log[0].Decision != d.Summary() || log[0].Step != "beforeShellExecution" {
					t.Fatalf("log record %+v does not match the run (failure %q, decision %q)", log[0], r.failure, d.Summary())
				}
			})
		}
	}
}
