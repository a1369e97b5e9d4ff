//go:build unix

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/fakemodel"
)

// pushCase is one agent's push test, at one scope: how to start the
// agent against a fake model, which steps its hooks must run.
type pushCase struct {
	agent string // --agent name and the agent's command
	scope string
	pkg   string // its npm package
	steps []string
	// gated: the agent has gates of its own at this scope, which install
	// opens with --trust, and without which it skips the hooks.
	gated bool
	// model starts the agent's fake model playing script; tool and args
	// are its shell tool and the tool's arguments for a command.
	model func(fakemodel.Script) fakeModel
	tool  string
	args  func(cmd, desc string) map[string]any
	// setup configures the agent in w for the model at url (its own
	// settings and environment) and returns the arguments of one
	// non-interactive session.
	setup func(t *testing.T, w *workspace, url string) []string
	// removeTrust takes the agent's own trust state out again, as a user
	// resetting the agent would.
	removeTrust func(t *testing.T, w *workspace)
}

// fakeModel is one of internal/fakemodel's servers.
type fakeModel interface {
	model
	URL() string
	Close()
}

// pushSteps are the steps every one of these agents runs hooks for in
// the push session.
var pushSteps = []string{
	"sessionStart", "beforeSubmitPrompt",
	"preToolUse", "beforeShellExecution git push origin main",
	"preToolUse", "beforeShellExecution " + allowedCommand,
	"postToolUse", "afterShellExecution " + allowedCommand,
	"stop", "sessionEnd",
}

// runPushCase runs c: the doctor before install, install (with --trust
// where the agent has gates), the doctor after, a real session in which
// the push must be denied and never run, the reason reach the model and
// the allowed command run; then, where the agent has gates, the doctor
// again after the agent's trust was taken away.
func runPushCase(t *testing.T, c pushCase) {
	t.Parallel()
	start := time.Now()
	w := newWorkspace(t)
	bin := agent(t, c.agent)
	// The agent on PATH, where the doctor looks for it.
	if err := os.Symlink(bin, filepath.Join(w.Shims, c.agent)); err != nil {
		t.Fatal(err)
	}
	model := c.model(pushScript(c.tool, c.args))
	defer model.Close()
	args := c.setup(t, w, model.URL())

	rep := w.doctor()
	if rep.OK || !rep.failed(c.agent, "wired") {
		t.Errorf("doctor before install: ok %v, want the agent's wiring reported missing:\n%s", rep.OK, rep.text)
	}

	install := []string{"install", "--agent", c.agent, "--scope", c.scope}
	if c.gated {
		install = append(install, "--trust")
	}
	out := w.agenthooks(install...)
	t.Logf("agenthooks %s:\n%s", strings.Join(install, " "), out)

	rep = w.doctor()
	if bad := rep.problems(c.agent); len(bad) > 0 {
		t.Errorf("doctor after install: problems for %s:\n%s", c.agent, rep.text)
	}
	if c.gated && !rep.passed(c.agent, "gate") {
		t.Errorf("doctor after install: no open gate reported for %s:\n%s", c.agent, rep.text)
	}

	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	defer cancel()
	run := time.Now()
	out, err := w.run(ctx, bin, args...)
	t.Logf("%s %s ran %s", c.agent, pinnedVersion(c.pkg), time.Since(run).Round(time.Millisecond))
	check(t, w, out, err, model, c.steps)
	t.Logf("%s at %s scope: steps %s", c.agent, c.scope, strings.Join(w.steps(), ", "))

	if c.removeTrust != nil {
		c.removeTrust(t, w)
		rep = w.doctor()
		if rep.OK || !rep.failed(c.agent, "gate") {
			t.Errorf("doctor after the agent's trust was removed: ok %v, want its gate reported shut:\n%s", rep.OK, rep.text)
		}
	}
	t.Logf("%s at %s scope: %s in all", c.agent, c.scope, time.Since(start).Round(time.Millisecond))
}

// doctorReport is what `agenthooks doctor --json` says.
type doctorReport struct {
	OK     bool `json:"ok"`
	Checks []struct {
		Agent, Scope, Check, Detail, Fix string
		OK                               bool
	} `json:"checks"`
	text string
}

// doctor runs `agenthooks doctor --json` in the project.
func (w *workspace) doctor() doctorReport {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := w.run(ctx, w.Bin, "doctor", "--json", "--workspace", w.Dir)
	var rep doctorReport
	// Exit 1 says there are problems; the report is on stdout either way
	// (stderr may hold a warning before it).
	i := strings.Index(out, "{")
	if i < 0 || json.Unmarshal([]byte(out[i:]), &rep) != nil {
		w.t.Fatalf("agenthooks doctor: %v\n%s", err, out)
	}
	rep.text = out
	return rep
}

func (r doctorReport) failed(agent, check string) bool {
	for _, c := range r.Checks {
		if c.Agent == agent && c.Check == check && !c.OK {
			return true
		}
	}
	return false
}

func (r doctorReport) passed(agent, check string) bool {
	for _, c := range r.Checks {
		if c.Agent == agent && c.Check == check && c.OK {
			return true
		}
	}
	return false
}

func (r doctorReport) problems(agent string) []string {
	var out []string
	for _, c := range r.Checks {
		if (c.Agent == agent || c.Agent == "") && !c.OK {
			out = append(out, c.Check+": "+c.Detail)
		}
	}
	return out
}

// pushScript is the model's side of the push session, for a shell tool
// whose arguments args makes of a command and its description.
func pushScript(tool string, args func(cmd, desc string) map[string]any) fakemodel.Script {
	return fakemodel.Script{Steps: []fakemodel.Step{
		fakemodel.Call(tool, args("git push origin main", "Push main.")),
		fakemodel.Call(tool, args(allowedCommand, "Write allowed.txt.")),
		fakemodel.Say("The push was blocked by policy; allowed.txt is written."),
	}}
}

// runFollowupCase: a stop hook's follow-up reaches the agent's model as
// the next prompt, and the loop ends at the hook's loop_limit (1): the
// stop hook runs twice, not again and again. For Copilot CLI this rests
// on its stop_hook_active.
func runFollowupCase(t *testing.T, c pushCase) {
	t.Parallel()
	w := newWorkspace(t)
	w.Setenv("E2E_FOLLOWUP", followup)
	bin := agent(t, c.agent)
	model := c.model(fakemodel.Script{Done: "Nothing to do."})
	defer model.Close()
	args := c.setup(t, w, model.URL())
	for i, a := range args {
		if a == prompt {
			args[i] = "Say hello."
		}
	}
	install := []string{"install", "--agent", c.agent, "--scope", c.scope}
	if c.gated {
		install = append(install, "--trust")
	}
	w.agenthooks(install...)
	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	defer cancel()
	out, err := w.run(ctx, bin, args...)
	checkFollowup(t, w, out, err, model)
}
