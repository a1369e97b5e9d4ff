// Package runner turns one hook definition and one payload into one raw
// result. There is a runner per hook type (command, prompt, policy); the
// engine picks one through a small registry and never needs to know how a
// type works inside.
package runner

import (
	"context"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
)

// Failure names why a hook produced no usable answer. The values are the
// ones the execution log records.
type Failure string

// The failure kinds (docs/semantics.md, one hook).
const (
	OK             Failure = ""
	InvalidOutput  Failure = "invalid_output"
	ExitStatus     Failure = "exit_status"
	Timeout        Failure = "timeout"
	SpawnError     Failure = "spawn_error"
	OutputTooLarge Failure = "output_too_large"
	// Canceled means the caller's context ended before the hook did.
	Canceled Failure = "canceled"
	// Unsupported means no runner is registered for the hook's type.
	Unsupported Failure = "unsupported"
	// MatcherTimeout means the hook's matcher could not decide whether the
	// hook applies (it ran out of time on the value): the hook did not
	// run and counts as failed, so its failClosed applies.
	MatcherTimeout Failure = "matcher_timeout"
	// Panicked means the runner itself failed (a bug in agenthooks or in
	// an in-process runner): the hook has no answer, as if it had crashed.
	Panicked Failure = "panic"
	// HostFault means the hook did not run because agenthooks could not
	// decide the step at all (a payload it cannot read, a panic): the
	// hook counts as failed, so its failClosed applies.
	HostFault Failure = "agenthooks_fault"
)

// Request is everything a runner needs for one execution.
type Request struct {
	Hook    *config.Hook
	Step    event.Step
	Payload []byte        // the step's JSON, common fields filled in
	Env     []string      // the complete environment for the hook
	Timeout time.Duration // already resolved from the hook and engine defaults
}

// Result is one execution's outcome before merging.
type Result struct {
	// Response is the validated answer; nil means "no opinion" (or failed).
	Response *event.Response
	// Blocked is true when the hook asked to block by exiting with code 2.
	Blocked bool
	// Failure is OK for a valid execution.
	Failure Failure
	// Detail explains a failure in words, for the log and for fail-closed
	// messages.
	Detail string
	// Warning says how an answer was read against its hook's convention
	// (a deny printed before a non-zero exit, a field the step ignores),
	// for the log and `agenthooks test`; "" when nothing is worth saying.
	Warning  string
	ExitCode int
	Stdout   []byte
	Stderr   []byte
	Duration time.Duration
}

// Runner executes one hook.
type Runner interface {
	Run(ctx context.Context, req Request) Result
}

// InProcess is implemented by a runner that answers some hooks without
// starting a process: those hooks never see an environment, so a step
// whose hooks are all in-process does without the session's env.
type InProcess interface {
	InProcess(h *config.Hook) bool
}

// Func adapts a function to Runner.
type Func func(ctx context.Context, req Request) Result

// Run calls f.
func (f Func) Run(ctx context.Context, req Request) Result { return f(ctx, req) }
