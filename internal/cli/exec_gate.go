package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/proc"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// execVerdict is what the before-hooks (and the user, when asked) decided.
type execVerdict struct {
	run       bool
	rewritten bool
	// messages are printed on stderr when the command does not run;
	// reason is the error_message postToolUseFailure gets.
	messages []string
	reason   string
	// interrupted is the signal that stopped exec before it decided.
	interrupted os.Signal
	// ask is the question left to a caller that runs the command itself
	// (exec --plan), when a hook asks and --ask=prompt.
	ask *wire.ExecAsk
}

// gate runs the before-hooks and, when one asks, the question on the
// terminal. A signal meanwhile stops everything: hooks cut short fail
// open, so deciding on their answers would let the command through.
func (c *execCall) gate(ctx context.Context, sigs <-chan os.Signal) (execVerdict, error) {
	hctx, stop := execWatch(ctx, sigs)
	v, err := c.decideWith(hctx, false)
	if sig := stop(); sig != nil {
		return execVerdict{interrupted: sig}, nil
	}
	if err == nil && ctx.Err() != nil {
		err = &exitError{code: ExitExecFailed, err: fmt.Errorf("run hooks, so nothing ran: %w", ctx.Err())}
	}
	return v, err
}

// decideWith runs the before-hooks and settles the verdict. A planning
// caller (exec --plan) gets a hook's question back instead of its being
// asked here.
func (c *execCall) decideWith(ctx context.Context, planning bool) (execVerdict, error) {
	pre, shell, err := c.before(ctx)
	if err != nil {
		return execVerdict{}, err
	}
	decisions := []*engine.Decision{shell, pre}
	var v execVerdict
	// A rewritten command is judged again by every before-hook, preToolUse
	// ones too: a hook of one source must not carry a command past
	// another's deny by rewriting it, and none may let through a command
	// it did not see. A command rewritten yet again was judged by no one.
	if cmd, ok := execUpdatedCommand(pre); ok && cmd != c.command && execMerge(decisions) != event.Deny {
		c.rewrite(cmd)
		v.rewritten = true
		pre2, shell2, err := c.before(ctx)
		if err != nil {
			return execVerdict{}, err
		}
		decisions = append(decisions, pre2, shell2)
		if cmd2, ok := execUpdatedCommand(pre2); ok && cmd2 != c.command && execMerge(decisions) != event.Deny {
			msg := "agenthooks: the hooks rewrote the command again when shown their own rewrite, so what would run was judged by no hook; it did not run"
			return execVerdict{rewritten: true, messages: []string{msg}, reason: msg}, nil
		}
	}
	switch execMerge(decisions) {
	case event.Deny:
		for _, d := range decisions {
			// The client message for the user, the model message for an
			// agent reading this stderr (agenthooks as its shell).
			for _, m := range []string{d.ClientMessage, d.ModelMessage} {
				if d.Permission == event.Deny && m != "" && !slices.Contains(v.messages, m) {
					v.messages = append(v.messages, m)
				}
			}
		}
		v.reason = strings.Join(v.messages, "\n")
	case event.Ask:
		var why []string
		for _, d := range decisions {
			if d.Permission == event.Ask && d.UserMessage != "" && !slices.Contains(why, d.UserMessage) {
				why = append(why, d.UserMessage)
			}
		}
		if planning && c.o.ask == askPrompt {
			v.ask = c.question(why)
			break
		}
		v.run, v.reason = c.confirm(ctx, why)
		if !v.run {
			v.messages = []string{v.reason}
		}
	default:
		v.run = true
	}
	return v, nil
}

// before runs preToolUse and beforeShellExecution at once: they are
// independent, and every command waits for the slower of the two.
func (c *execCall) before(ctx context.Context) (pre, shell *engine.Decision, err error) {
	var wg sync.WaitGroup
	var preErr, shellErr error
	wg.Go(func() {
		pre, preErr = c.eng.Run(ctx, event.PreToolUse, c.toolPayload(map[string]any{}), engine.CallerEnv(c.o.io.env))
	})
	wg.Go(func() {
		shell, shellErr = c.eng.Run(ctx, event.BeforeShellExecution, c.shellPayload(), engine.CallerEnv(c.o.io.env))
	})
	wg.Wait()
	for _, e := range []error{preErr, shellErr} {
		if e != nil {
			return nil, nil, &exitError{code: ExitExecFailed, err: fmt.Errorf("run hooks, so nothing ran: %w", e)}
		}
	}
	return pre, shell, nil
}

func (c *execCall) shellPayload() json.RawMessage {
	return c.payload(map[string]any{"command": c.command, "sandbox": c.sb.on})
}

// execMerge is the most restrictive permission of the decisions: the rule
// the engine applies between hooks, applied here between steps.
func execMerge(ds []*engine.Decision) event.Permission {
	p := event.NoOpinion
	for _, d := range ds {
		if d.Permission.Rank() > p.Rank() {
			p = d.Permission
		}
	}
	return p
}

// question is what the user is asked, and told when there is no yes.
func (c *execCall) question(why []string) *wire.ExecAsk {
	detail := ""
	if len(why) > 0 {
		detail = ": " + strings.Join(why, "; ")
	}
	return &wire.ExecAsk{
		Question:     execQuestion(c.command, why),
		NoTerminal:   "agenthooks: a hook asks for confirmation and there is no terminal to ask on (--ask=allow runs such commands)" + detail,
		NotConfirmed: "agenthooks: not confirmed, not run" + detail,
		NoAnswer:     "agenthooks: no answer to the confirmation a hook asks for: ",
	}
}

// confirm settles a hook's "ask": by --ask, or by asking on the terminal.
// It returns whether to run and, when not, why.
func (c *execCall) confirm(ctx context.Context, why []string) (bool, string) {
	switch c.o.ask {
	case askAllow:
		return true, ""
	case askDeny:
		detail := ""
		if len(why) > 0 {
			detail = ": " + strings.Join(why, "; ")
		}
		return false, "agenthooks: a hook asks for confirmation and --ask=deny refuses" + detail
	}
	q := c.question(why)
	if !proc.IsTerminal(c.o.io.In) && !proc.IsTerminal(c.o.io.Err) {
		return false, q.NoTerminal
	}
	t, err := proc.OpenTerminal()
	if err != nil {
		return false, q.NoTerminal
	}
	defer t.Close()
	yes, err := t.Ask(ctx, q.Question)
	switch {
	case err != nil:
		return false, q.NoAnswer + err.Error()
	case !yes:
		return false, q.NotConfirmed
	}
	return true, ""
}
