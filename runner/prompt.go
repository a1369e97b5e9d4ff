package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agenthooks/agenthooks/llm"
)

// ModelError means the model could not be asked: the provider refused
// (HTTP 4xx/5xx after retries), could not be reached, or is not
// configured. It is the prompt hook's counterpart of spawn_error and
// exit_status, which name process failures.
const ModelError Failure = "model_error"

// DefaultPromptInput is the largest hook input a prompt hook sends when
// Prompt.MaxInput is zero.
const DefaultPromptInput = 1 << 20

// Prompt runs `type: "prompt"` hooks (Cursor's "Prompt-Based Hooks";
// docs/prompt-hooks.md): the
// hook's condition, with the step's input substituted for $ARGUMENTS (or
// appended), goes to a model that answers {"ok": boolean, "reason":
// string}; the verdict becomes the step's answer (see promptResponse).
//
// Failures follow the command hooks': no answer within the hook's timeout
// is timeout, an answer that is not a verdict is invalid_output, a
// provider that fails or refuses is model_error; each is fail-open unless
// the hook has failClosed.
type Prompt struct {
	// Client asks the model; nil fails every prompt hook with model_error
	// (a build or configuration without a model).
	Client llm.Client
	// MaxInput bounds the hook input put into the prompt, in bytes; zero
	// means DefaultPromptInput. A larger input fails with model_error
	// rather than being cut: a judge must not rule on half a command.
	MaxInput int
}

// Run asks the model and maps its verdict to the step's answer.
func (p Prompt) Run(ctx context.Context, req Request) Result {
	start := time.Now()
	res := p.run(ctx, req)
	res.Duration = time.Since(start)
	if res.Failure != OK {
		res.ExitCode = -1
	}
	return res
}

func (p Prompt) run(ctx context.Context, req Request) Result {
	if p.Client == nil {
		return Result{Failure: ModelError, Detail: "prompt hooks are not available: no model client is configured"}
	}
	limit := p.MaxInput
	if limit <= 0 {
		limit = DefaultPromptInput
	}
	if len(req.Payload) > limit {
		return Result{Failure: ModelError, Detail: fmt.Sprintf(
			"the hook input is %d bytes, more than the %d a prompt hook sends to a model; the model was not asked", len(req.Payload), limit)}
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = DefaultPromptTimeout
	}
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ans, err := p.Client.Judge(hctx, llm.Request{
		Prompt: buildPrompt(req.Hook.Prompt, req.Payload),
		Model:  req.Hook.Model,
	})
	if err != nil {
		return failure(ctx, hctx, err, timeout)
	}
	resp, err := promptResponse(req.Step, ans)
	if err != nil {
		return Result{Failure: InvalidOutput, Detail: err.Error()}
	}
	return Result{Response: resp, Stdout: ans.Raw}
}

// DefaultPromptTimeout is a prompt hook's timeout when its definition
// gives none; the engine's default too.
const DefaultPromptTimeout = 30 * time.Second

// DefaultTimeout is the engine's timeout of a hook of any other type whose
// definition gives none, as Cursor's. It lives here, below the engine, so
// that packages describing hooks (export) can state it without importing
// the engine.
const DefaultTimeout = 60 * time.Second

// failure classifies a failed Judge call. The contexts decide first: an
// error that happened because the hook's time ran out is a timeout
// whatever the transport said, and one because the caller left is
// canceled.
func failure(parent, hctx context.Context, err error, timeout time.Duration) Result {
	var ae *llm.AnswerError
	switch {
	case parent.Err() != nil:
		return Result{Failure: Canceled, Detail: "canceled before the model answered"}
	case errors.Is(hctx.Err(), context.DeadlineExceeded):
		return Result{Failure: Timeout, Detail: fmt.Sprintf("the model did not answer within %s: %v", timeout, err)}
	case errors.As(err, &ae):
		return Result{Failure: InvalidOutput, Detail: err.Error()}
	}
	return Result{Failure: ModelError, Detail: err.Error()}
}
