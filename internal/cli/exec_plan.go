package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/agenthooks/agenthooks/host"
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

// plan gates the command and writes the plan as JSON on stdout.
func (o *execOptions) plan(ctx context.Context) error {
	cwd, err := o.workDir()
	if err != nil {
		return err
	}
	req, err := o.request(cwd)
	if err != nil {
		return err
	}
	p, err := o.io.openHost(ctx).PlanExec(ctx, req)
	if err != nil {
		return &exitError{code: ExitExecFailed, err: err}
	}
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
	var r host.ExecReport
	if err := json.Unmarshal(b, &r); err != nil {
		return &exitError{code: ExitExecFailed, err: fmt.Errorf("read the report: %w", err)}
	}
	fmt.Fprint(o.io.Err, o.io.openHost(ctx).ReportExec(ctx, r, o.io.env))
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
