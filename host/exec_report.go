package host

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/settings"
	"github.com/agenthooks/agenthooks/sandbox"
)

// ReportExec runs the after-hooks of a planned command: postToolUseFailure
// for one that was refused (r.Refused); for one that ran,
// afterShellExecution with its output, and postToolUse when it exited 0,
// postToolUseFailure otherwise, at once. What it returns is for the
// user's stderr; env is the caller's environment, which the hooks
// inherit (nil: this process's): the sandbox rules behind a failed command's refusals
// (which the after-hooks are told too), and the steps that could not run.
// The answers of these steps change nothing; ctx ending cuts them short.
func (h *Host) ReportExec(ctx context.Context, r ExecReport, env []string) (stderr string) {
	var out strings.Builder
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(&out, "agenthooks: the after-hooks: %v\n", h.panicErr(p))
			stderr = out.String()
		}
	}()
	eng, err := h.Engine(r.Call.Roots, config.Skip{})
	if err != nil {
		return fmt.Sprintf("agenthooks: the after-hooks: load hooks: %v\n", err)
	}
	c := &execCall{h: h, eng: eng, roots: r.Call.Roots, cwd: r.Call.Cwd, command: r.Call.Command,
		conversation: r.Call.Conversation, toolUseID: r.Call.ToolUseID, quiet: r.Call.Quiet}
	c.env = env
	if r.Call.Sandbox {
		// As planned: the command ran inside. The policy is read again
		// only to name the rules behind its refusals.
		c.sb = execSandbox{policy: h.Sandbox(r.Call.Roots).Policy, on: true}
	}
	var steps []execStep
	if r.Result == nil {
		steps = []execStep{{event.PostToolUseFailure, c.toolPayload(map[string]any{
			"error_message": r.Refused,
			"failure_type":  event.FailurePermissionDenied,
			"duration":      0,
			"is_interrupt":  false,
		})}}
	} else {
		steps = c.afterSteps(&out, *r.Result)
	}
	if _, err := c.runSteps(ctx, steps); err != nil {
		for _, e := range unjoin(err) {
			fmt.Fprintf(&out, "agenthooks: %v\n", e)
		}
	}
	return out.String()
}

// afterSteps are the after-hooks' steps of a command that ran. What the
// sandbox refused, with the rule and its file, is said to the user (on
// out) and is part of what the after-hooks are told.
func (c *execCall) afterSteps(out *strings.Builder, res ExecResult) []execStep {
	if why := c.sb.explain(c.cwd, res.Output, res.Code); why != "" {
		out.WriteString(why)
		res.Output += why
		if res.StartErr == "" {
			res.StartErr = strings.TrimSpace(execFailure(res) + "\n" + why)
		}
	}
	ms := res.DurationMS
	steps := []execStep{{event.AfterShellExecution, c.payload(map[string]any{
		"command":  c.command,
		"output":   res.Output,
		"duration": ms,
		"sandbox":  c.sb.on,
	})}}
	if res.Code == 0 {
		toolOutput := execJSON(struct {
			ExitCode int    `json:"exitCode"`
			Stdout   string `json:"stdout"`
		}{res.Code, res.Output})
		return append(steps, execStep{event.PostToolUse, c.toolPayload(map[string]any{
			"tool_output": string(toolOutput),
			"duration":    ms,
		})})
	}
	return append(steps, execStep{event.PostToolUseFailure, c.toolPayload(map[string]any{
		"error_message": execFailure(res),
		"failure_type":  event.FailureError,
		"duration":      ms,
		"is_interrupt":  res.Interrupted,
	})})
}

// unjoin is the errors errors.Join gathered, or err alone.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// execFailure is postToolUseFailure's error_message for a command that ran
// and failed.
func execFailure(r ExecResult) string {
	switch {
	case r.StartErr != "":
		return r.StartErr
	case r.Signal != "":
		return fmt.Sprintf("Command was killed by %s", r.Signal)
	}
	return fmt.Sprintf("Command exited with code %d", r.Code)
}

// execSandbox is the sandbox as it applies to one exec call
// (docs/sandbox.md): decided before the hooks run, so that they see
// sandbox: true exactly when the kernel boundary will be up.
type execSandbox struct {
	policy sandbox.Policy
	// on: the command runs inside the kernel boundary.
	on bool
	// refused, when set, keeps the command from running at all: the
	// sandbox cannot be built, or the kernel cannot enforce it and the
	// policy does not allow running open.
	refused string
	// note is said before the command runs open where the kernel cannot
	// sandbox and the policy allows that.
	note     string
	bin      string
	problems []string
}

// execSandbox reads the sandbox of roots and decides how a command runs
// in it. The trampoline is the engine binary's: getenv's
// AGENTHOOKS_ENGINE_BIN, else this executable.
func (h *Host) execSandbox(roots []string, getenv func(string) string) execSandbox {
	l := h.Sandbox(roots)
	var s execSandbox
	for _, p := range l.Problems {
		if err := l.Err(); err != nil && strings.HasPrefix(err.Error(), p.Error()) {
			continue // said once, as the refusal
		}
		s.problems = append(s.problems, "agenthooks: "+p.Error())
	}
	if err := l.Err(); err != nil {
		s.refused = "agenthooks: " + err.Error() + "; the command did not run"
		return s
	}
	s.policy = l.Policy
	s.bin = getenv(settings.EngineBin)
	if s.bin == "" {
		exe, err := os.Executable()
		if err != nil && l.Policy.Enabled() {
			s.refused = fmt.Sprintf("agenthooks: find the engine binary for the sandbox (%v); the command did not run", err)
			return s
		}
		s.bin = exe
	}
	probe := sandbox.Wrap(l.Policy, s.bin, []string{"true"})
	s.on, s.refused, s.note = probe.Sandboxed, probe.Refused, probe.Note
	return s
}

// wrap is argv as it runs: through the trampoline when the sandbox is on.
func (s execSandbox) wrap(argv []string) []string {
	if !s.on {
		return argv
	}
	return sandbox.Wrap(s.policy, s.bin, argv).Argv
}

// say writes the sandbox files' problems (unless quiet) and the note.
func (s execSandbox) say(w io.Writer, quiet bool) {
	if !quiet {
		for _, p := range s.problems {
			fmt.Fprintln(w, p)
		}
	}
	if s.note != "" {
		fmt.Fprintln(w, s.note)
	}
}

// explain names the sandbox rules behind a failed command's refusals, for
// the user and the after-hooks.
func (s execSandbox) explain(cwd, output string, code int) string {
	if !s.on || code == 0 {
		return ""
	}
	notes := sandbox.Explain(s.policy, cwd, output)
	if len(notes) == 0 {
		return ""
	}
	return strings.Join(notes, "\n") + "\n"
}
