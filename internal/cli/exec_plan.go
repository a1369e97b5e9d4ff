package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/internal/proc"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// exec in two halves, for a caller that runs the command itself: the
// agenthooks client, which must own the command (its terminal, its
// signals, its exit status) while the resident engine holds the hooks.
//
//	exec --plan [FLAGS] -- COMMAND   gates the command and prints a plan
//	exec --report                    reads the plan's call and the result
//	                                 on stdin and runs the after-hooks
//
// Both run the same code as exec in one process: the gate, the ask
// policy, the after-hooks. Only the terminal question and the command
// itself are the caller's.

// execPlan is the answer to exec --plan.
type execPlan = wire.ExecPlan

// execReport is the input of exec --report.
type execReport = wire.ExecReport

// plan gates the command and writes the plan as JSON on stdout.
func (o *execOptions) plan(ctx context.Context) error {
	cwd, err := o.workDir()
	if err != nil {
		return err
	}
	p := execPlan{PTY: !o.noPTY}
	call := o.newCall(nil, cwd)
	if o.io.getenv(engine.HookMarker) != "" {
		// A hook's own shell command runs without hooks (see run).
		p.Run, p.Argv, p.Dir = true, call.argvToRun(), cwd
		return o.writePlan(p)
	}
	h, eng, err := o.engine(ctx, cwd)
	if err != nil {
		return err
	}
	var problems strings.Builder
	if !o.quiet {
		printEngineProblems(&problems, eng)
	}
	call.eng = eng
	call.sb = o.sandboxFor(h, o.workspaces)
	call.sb.say(&problems, o.quiet)
	if call.sb.refused != "" {
		p.Stderr = problems.String()
		p.Messages, p.Reason = []string{call.sb.refused}, call.sb.refused
		p.Hooks, p.Call = true, call.state()
		return o.writePlan(p)
	}
	v, err := call.decideWith(ctx, true)
	if err != nil {
		return err
	}
	if v.rewritten && !o.quiet {
		fmt.Fprintf(&problems, "agenthooks: a hook rewrote the command to: %s\n", call.command)
	}
	p.Stderr = problems.String()
	p.Run, p.Messages, p.Reason, p.Ask = v.run, v.messages, v.reason, v.ask
	p.Argv, p.Dir = call.sb.wrap(call.argvToRun()), cwd
	p.Sandbox = call.sb.on
	p.Hooks = true
	p.Call = call.state()
	return o.writePlan(p)
}

func (o *execOptions) writePlan(p execPlan) error {
	b, err := json.Marshal(p)
	if err != nil {
		return &exitError{code: ExitExecFailed, err: fmt.Errorf("encode the plan: %w", err)}
	}
	_, err = o.io.Out.Write(append(b, '\n'))
	return err
}

// report runs the after-hooks of a planned command: refused, or run with
// the result the caller measured.
func (o *execOptions) report(ctx context.Context) error {
	b, err := io.ReadAll(io.LimitReader(o.io.In, wire.MaxBody))
	if err != nil {
		return &exitError{code: ExitExecFailed, err: fmt.Errorf("read the report: %w", err)}
	}
	var r execReport
	if err := json.Unmarshal(b, &r); err != nil {
		return &exitError{code: ExitExecFailed, err: fmt.Errorf("read the report: %w", err)}
	}
	o.workspaces, o.quiet = r.Call.Roots, r.Call.Quiet
	h, eng, err := o.engine(ctx, r.Call.Cwd)
	if err != nil {
		return err
	}
	call := callFromState(o, eng, r.Call)
	if r.Call.Sandbox {
		// As planned: the command ran inside. The policy is read again
		// only to name the rules behind its refusals.
		call.sb = execSandbox{policy: h.Sandbox(o.workspaces).Policy, on: true}
	}
	if r.Result == nil {
		call.refused(ctx, nil, r.Refused)
		return nil
	}
	call.after(ctx, nil, proc.ForegroundResult{
		Code:        r.Result.Code,
		Signal:      r.Result.Signal,
		Interrupted: r.Result.Interrupted,
		StartErr:    r.Result.StartErr,
		Output:      r.Result.Output,
		Duration:    time.Duration(r.Result.DurationMS) * time.Millisecond,
	})
	return nil
}

// workDir is the caller's working directory.
func (o *execOptions) workDir() (string, error) {
	if o.io.dir != "" {
		return o.io.dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", &exitError{code: ExitExecFailed, err: fmt.Errorf("current directory: %w", err)}
	}
	return wd, nil
}

// engine loads the hooks for the workspaces (default: cwd) from the
// verb's host: the resident engine's when it serves the verb.
func (o *execOptions) engine(ctx context.Context, cwd string) (*host.Host, *engine.Engine, error) {
	var roots []string
	for _, r := range o.workspaces {
		a, err := o.io.abs(r)
		if err != nil {
			return nil, nil, &exitError{code: ExitExecFailed, err: fmt.Errorf("workspace %s: %w", r, err)}
		}
		roots = append(roots, a)
	}
	if len(roots) == 0 {
		roots = []string{cwd}
	}
	roots, err := workspaceRoots(nil, roots)
	if err != nil {
		return nil, nil, err
	}
	o.workspaces = roots
	h := o.io.openHost(ctx)
	eng, err := h.Engine(roots, nil)
	if err != nil {
		return nil, nil, &exitError{code: ExitExecFailed, err: fmt.Errorf("load hooks, so nothing ran: %w", err)}
	}
	return h, eng, nil
}

// state is what the report needs to run the after-hooks of this call.
func (c *execCall) state() *wire.ExecCall {
	return &wire.ExecCall{
		Roots:        c.o.workspaces,
		Cwd:          c.cwd,
		Command:      c.command,
		Conversation: c.conversation,
		ToolUseID:    c.toolUseID,
		Quiet:        c.o.quiet,
		Sandbox:      c.sb.on,
	}
}

func callFromState(o *execOptions, eng *engine.Engine, s wire.ExecCall) *execCall {
	return &execCall{o: o, eng: eng, cwd: s.Cwd, command: s.Command, conversation: s.Conversation, toolUseID: s.ToolUseID}
}
