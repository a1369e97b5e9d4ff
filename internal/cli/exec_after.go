package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/proc"
)

// after runs the after-hooks of a command that ran: afterShellExecution
// with its output, and postToolUse when it exited 0, postToolUseFailure
// otherwise. They run at once; a signal cuts them short.
func (c *execCall) after(ctx context.Context, sigs <-chan os.Signal, res proc.ForegroundResult) {
	ms := res.Duration.Milliseconds()
	// What the sandbox refused, with the rule and its file: said to the
	// user, and part of what the after-hooks are told.
	if why := c.sb.explain(c.cwd, res.Output, res.Code); why != "" {
		fmt.Fprint(c.o.io.Err, why)
		res.Output += why
		if res.StartErr == "" {
			res.StartErr = strings.TrimSpace(execFailure(res) + "\n" + why)
		}
	}
	steps := []execStep{{event.AfterShellExecution, c.payload(map[string]any{
		"command":  c.command,
		"output":   res.Output,
		"duration": ms,
		"sandbox":  c.sb.on,
	})}}
	if res.Code == 0 {
		out := execJSON(struct {
			ExitCode int    `json:"exitCode"`
			Stdout   string `json:"stdout"`
		}{res.Code, res.Output})
		steps = append(steps, execStep{event.PostToolUse, c.toolPayload(map[string]any{
			"tool_output": string(out),
			"duration":    ms,
		})})
	} else {
		steps = append(steps, execStep{event.PostToolUseFailure, c.toolPayload(map[string]any{
			"error_message": execFailure(res),
			"failure_type":  event.FailureError,
			"duration":      ms,
			"is_interrupt":  res.Interrupted,
		})})
	}
	c.runSteps(ctx, sigs, steps)
}

// refused runs postToolUseFailure for a command the hooks or the user
// did not let run.
func (c *execCall) refused(ctx context.Context, sigs <-chan os.Signal, reason string) {
	c.runSteps(ctx, sigs, []execStep{{event.PostToolUseFailure, c.toolPayload(map[string]any{
		"error_message": reason,
		"failure_type":  event.FailurePermissionDenied,
		"duration":      0,
		"is_interrupt":  false,
	})}})
}

type execStep struct {
	step    event.Step
	payload json.RawMessage
}

// runSteps runs observational steps at once. Their answers change nothing,
// so only an engine error (never expected: the payloads are objects and
// the steps known) is reported.
func (c *execCall) runSteps(ctx context.Context, sigs <-chan os.Signal, steps []execStep) {
	hctx, stop := execWatch(ctx, sigs)
	defer stop()
	errs := make([]error, len(steps))
	var wg sync.WaitGroup
	for i, s := range steps {
		wg.Go(func() { _, errs[i] = c.eng.Run(hctx, s.step, s.payload, engine.CallerEnv(c.o.io.env)) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			fmt.Fprintf(c.o.io.Err, "agenthooks: %s hooks: %v\n", steps[i].step, err)
		}
	}
}

// execFailure is postToolUseFailure's error_message for a command that ran
// and failed.
func execFailure(r proc.ForegroundResult) string {
	switch {
	case r.StartErr != "":
		return r.StartErr
	case r.Signal != "":
		return fmt.Sprintf("Command was killed by %s", r.Signal)
	}
	return fmt.Sprintf("Command exited with code %d", r.Code)
}
