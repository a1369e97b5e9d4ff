//go:build unix

package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// plan runs `exec --plan ARGS…` and decodes the plan; nothing may run.
func (w *execWorld) plan(args ...string) wire.ExecPlan {
	w.t.Helper()
	cmd := w.command(append([]string{"--plan"}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		w.t.Fatalf("exec --plan %q: %v", args, err)
	}
	var p wire.ExecPlan
	if err := json.Unmarshal(out, &p); err != nil {
		w.t.Fatalf("exec --plan %q printed %q: %v", args, out, err)
	}
	if w.markerExists() {
		w.t.Fatalf("exec --plan %q ran the command", args)
	}
	return p
}

// report runs `exec --report` with r.
func (w *execWorld) report(r wire.ExecReport) {
	w.t.Helper()
	b, _ := json.Marshal(r)
	cmd := w.command("--report")
	cmd.Stdin = strings.NewReader(string(b))
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("exec --report: %v\n%s", err, out)
	}
}

// The halves of exec give the hooks what exec in one process gives them:
// the gate decides without running anything, the report runs the
// after-hooks with the result the caller measured.
func TestExecPlan(t *testing.T) {
	bin := buildBinary(t)
	t.Run("AndReport", func(t *testing.T) { testExecPlanAndReport(t, bin) })
	t.Run("Ask", func(t *testing.T) { testExecPlanAsk(t, bin) })
	t.Run("InsideHook", func(t *testing.T) { testExecPlanInsideHook(t, bin) })
}

func testExecPlanAndReport(t *testing.T, bin string) {
	w := newExecWorld(t, bin)
	touch := "echo done > " + w.marker()

	p := w.plan(touch)
	if !p.Run || p.Ask != nil || !p.Hooks || p.Call == nil {
		t.Fatalf("an allowed command: plan %+v", p)
	}
	if p.Dir != w.dir || len(p.Argv) < 3 || p.Argv[len(p.Argv)-1] != touch {
		t.Fatalf("an allowed command runs through the shell in the working directory: %+v", p)
	}
	if w.hookRan("afterShellExecution") {
		t.Fatal("the plan ran an after-hook")
	}
	w.report(wire.ExecReport{Call: *p.Call, Result: &wire.ExecResult{Code: 0, Output: "done\n", DurationMS: 12}})
	after := w.hookInput("afterShellExecution")
	if after["command"] != touch || after["output"] != "done\n" || after["duration"] != float64(12) {
		t.Fatalf("afterShellExecution got %v", after)
	}
	if post := w.hookInput("postToolUse"); post["tool_use_id"] != p.Call.ToolUseID {
		t.Fatalf("postToolUse got %v, want tool_use_id %s", post, p.Call.ToolUseID)
	}

	denied := w.plan("echo deny-me > " + w.marker())
	if denied.Run || denied.Ask != nil || !strings.Contains(strings.Join(denied.Messages, "\n"), "denied by the test hook") {
		t.Fatalf("a denied command: plan %+v", denied)
	}
	w.report(wire.ExecReport{Call: *denied.Call, Refused: denied.Reason})
	fail := w.hookInput("postToolUseFailure")
	if fail["failure_type"] != "permission_denied" || !strings.Contains(fail["error_message"].(string), "denied by the test hook") {
		t.Fatalf("postToolUseFailure got %v", fail)
	}
}

// A hook's "ask" is left to the caller, with the question and the
// refusals; --ask=allow and --ask=deny settle it in the engine.
func testExecPlanAsk(t *testing.T, bin string) {
	w := newExecWorld(t, bin)
	command := "echo ask-me > " + w.marker()
	p := w.plan(command)
	if p.Run || p.Ask == nil || !strings.Contains(p.Ask.Question, command) || !strings.Contains(p.Ask.Question, "the test hook wants a yes") {
		t.Fatalf("a command a hook asks about: plan %+v", p)
	}
	if !strings.Contains(p.Ask.NotConfirmed, "not confirmed") || !strings.Contains(p.Ask.NoTerminal, "no terminal") {
		t.Fatalf("the refusals: %+v", p.Ask)
	}
	if p := w.plan("--ask=allow", command); !p.Run || p.Ask != nil {
		t.Fatalf("--ask=allow: plan %+v", p)
	}
	if p := w.plan("--ask=deny", command); p.Run || p.Ask != nil || !strings.Contains(p.Reason, "--ask=deny") {
		t.Fatalf("--ask=deny: plan %+v", p)
	}
}

// A hook's own command runs without hooks: no after-hooks to report.
func testExecPlanInsideHook(t *testing.T, bin string) {
	w := newExecWorld(t, bin)
	w.env = append(w.env, "AGENTHOOKS_HOOK=1")
	p := w.plan("echo deny-me")
	if !p.Run || p.Hooks || p.Call != nil {
		t.Fatalf("a hook's own command: plan %+v", p)
	}
	_ = os.Remove(w.marker())
}
