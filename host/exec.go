package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/internal/proc"
	"github.com/agenthooks/agenthooks/internal/settings"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// A command gated the way Cursor gates an agent's terminal command
// (`agenthooks exec`, `agenthooks -c`): PlanExec runs the before-hooks
// (preToolUse of tool "Shell" and beforeShellExecution) and says whether
// and how the command runs; the caller runs it, since it owns the
// terminal, the signals and the exit status; ReportExec runs the
// after-hooks with how it ended. The resident engine serves both halves
// for the client, and the command line's exec calls them in process.

// What PlanExec does when a hook answers "ask" (ExecRequest.Ask).
const (
	// AskPrompt leaves the question to the caller: the plan's Ask.
	AskPrompt = "prompt"
	// AskAllow runs the command without asking.
	AskAllow = "allow"
	// AskDeny refuses it without asking.
	AskDeny = "deny"
)

// ExecToolName is the tool name preToolUse and postToolUse hooks see for a
// terminal command, and what their matchers test (Cursor's hooks
// documentation; docs/semantics.md, Matchers).
const ExecToolName = "Shell"

// ExecRequest is one command to gate.
type ExecRequest struct {
	// Command is the command line the hooks see. Argv, when set, is how
	// it runs, as it is; otherwise Command runs through the shell, with
	// ShellArgs as $0, $1, ….
	Command   string
	Argv      []string
	ShellArgs []string
	// Roots are the workspace roots, absolute; Cwd is the command's
	// working directory, absolute.
	Roots []string
	Cwd   string
	// Conversation is the conversation_id the hooks see.
	Conversation string
	// Env is the caller's environment: the hooks inherit it, and the
	// sandbox's engine binary (AGENTHOOKS_ENGINE_BIN) and the hook marker
	// are read from it. nil means this process's.
	Env []string
	// Ask is AskPrompt (also ""), AskAllow or AskDeny.
	Ask string
	// Quiet leaves configuration problems and rewrites out of Stderr.
	Quiet bool
	// NoPTY keeps the command off a pseudo-terminal (ExecPlan.PTY).
	NoPTY bool
}

// The plan, the question, the call and the report are the client's
// protocol types (internal/wire), named here: the client, which links no
// host, reads and writes them as they are.
type (
	// ExecPlan is how a gated command runs, or why it does not.
	ExecPlan = wire.ExecPlan
	// ExecAsk is the question a hook's "ask" puts to the user, and what
	// the refusal says in each case.
	ExecAsk = wire.ExecAsk
	// ExecCall is what the after-hooks of a planned command need to know
	// of it.
	ExecCall = wire.ExecCall
	// ExecReport is how a planned command ended: why it was refused, or
	// its result.
	ExecReport = wire.ExecReport
	// ExecResult is how a command ended.
	ExecResult = wire.ExecResult
)

// ErrExecNotRun wraps every error of PlanExec: the hooks could not judge
// the command, so nothing may run.
var ErrExecNotRun = errors.New("nothing ran")

// PlanExec gates a command: the sandbox it runs in, then the
// before-hooks, whose decisions fold by the engine's merge
// (engine.Strictest). A command a hook rewrote is judged again by every
// before-hook. An error means nothing may run: the hooks could not be
// loaded, could not run, or ctx ended first. A panic of agenthooks' own
// is such an error too.
func (h *Host) PlanExec(ctx context.Context, req ExecRequest) (p *ExecPlan, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("gate the command, so %w: %w", ErrExecNotRun, h.panicErr(r))
		}
	}()
	c := h.newCall(req)
	p = &ExecPlan{PTY: !req.NoPTY}
	if settings.Getenv(settings.Environ(req.Env))(engine.HookMarker) != "" {
		// A hook's own shell command: running the hooks again would
		// recurse without end when agenthooks is the agent's $SHELL.
		p.Run, p.Argv, p.Dir = true, c.argvToRun(), c.cwd
		return p, nil
	}
	eng, err := h.Engine(c.roots, config.Skip{})
	if err != nil {
		return nil, fmt.Errorf("load hooks, so %w: %w", ErrExecNotRun, err)
	}
	c.eng = eng
	var stderr strings.Builder
	if !req.Quiet {
		for _, pr := range problems(eng) {
			fmt.Fprintln(&stderr, "agenthooks:", pr)
		}
	}
	c.sb = h.execSandbox(c.roots, c.getenv)
	c.sb.say(&stderr, req.Quiet)
	if c.sb.refused != "" {
		p.Stderr = stderr.String()
		p.Messages, p.Reason = []string{c.sb.refused}, c.sb.refused
		p.Hooks, p.Call = true, c.state()
		return p, nil
	}
	v, err := c.decide(ctx)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("run hooks, so %w: %w", ErrExecNotRun, err)
	}
	if v.rewritten && !req.Quiet {
		fmt.Fprintf(&stderr, "agenthooks: a hook rewrote the command to: %s\n", c.command)
	}
	p.Stderr = stderr.String()
	p.Run, p.Messages, p.Reason, p.Ask = v.run, v.messages, v.reason, v.ask
	p.Argv, p.Dir = c.sb.wrap(c.argvToRun()), c.cwd
	p.Sandbox = c.sb.on
	p.Hooks = true
	p.Call = c.state()
	return p, nil
}

// execCall is one command on its way through the gate: what the hooks
// are told about it and how it will run.
type execCall struct {
	h      *Host
	eng    *engine.Engine
	roots  []string
	cwd    string
	env    []string
	getenv func(string) string
	ask    string
	quiet  bool
	// command is the command line the hooks see.
	command string
	// argv, when set, runs as it is; otherwise command runs through the
	// shell, with shellArgs as $0, $1, ….
	argv      []string
	shellArgs []string
	// conversation and toolUseID tie the steps of this call together for
	// hooks that correlate preToolUse with postToolUse.
	conversation string
	toolUseID    string
	// sb is the sandbox the command runs in.
	sb execSandbox
}

func (h *Host) newCall(req ExecRequest) *execCall {
	roots := req.Roots
	if len(roots) == 0 {
		roots = []string{req.Cwd}
	}
	return &execCall{
		h: h, roots: roots, cwd: req.Cwd, env: req.Env, getenv: settings.Getenv(settings.Environ(req.Env)),
		ask: req.Ask, quiet: req.Quiet,
		command: req.Command, argv: req.Argv, shellArgs: req.ShellArgs,
		conversation: req.Conversation, toolUseID: execNewID(),
	}
}

// execVerdict is what the before-hooks decided.
type execVerdict struct {
	run       bool
	rewritten bool
	// messages are printed on stderr when the command does not run;
	// reason is the error_message postToolUseFailure gets.
	messages []string
	reason   string
	// ask is the question left to the caller, when a hook asks and Ask
	// is AskPrompt.
	ask *ExecAsk
}

// decide runs the before-hooks and settles the verdict.
func (c *execCall) decide(ctx context.Context) (execVerdict, error) {
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
	if cmd, ok := updatedCommand(pre); ok && cmd != c.command && engine.Strictest(decisions...) != event.Deny {
		c.rewrite(cmd)
		v.rewritten = true
		pre2, shell2, err := c.before(ctx)
		if err != nil {
			return execVerdict{}, err
		}
		decisions = append(decisions, pre2, shell2)
		if cmd2, ok := updatedCommand(pre2); ok && cmd2 != c.command && engine.Strictest(decisions...) != event.Deny {
			msg := "agenthooks: the hooks rewrote the command again when shown their own rewrite, so what would run was judged by no hook; it did not run"
			return execVerdict{rewritten: true, messages: []string{msg}, reason: msg}, nil
		}
	}
	switch engine.Strictest(decisions...) {
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
		detail := ""
		if len(why) > 0 {
			detail = ": " + strings.Join(why, "; ")
		}
		switch c.ask {
		case AskAllow:
			v.run = true
		case AskDeny:
			v.reason = "agenthooks: a hook asks for confirmation and --ask=deny refuses" + detail
			v.messages = []string{v.reason}
		default:
			v.ask = c.question(why, detail)
		}
	default:
		v.run = true
	}
	return v, nil
}

// before runs preToolUse and beforeShellExecution at once: they are
// independent, and every command waits for the slower of the two.
func (c *execCall) before(ctx context.Context) (pre, shell *engine.Decision, err error) {
	ds, err := c.runSteps(ctx, []execStep{
		{event.PreToolUse, c.toolPayload(map[string]any{})},
		{event.BeforeShellExecution, c.payload(map[string]any{"command": c.command, "sandbox": c.sb.on})},
	})
	if err != nil {
		return nil, nil, err
	}
	return ds[0], ds[1], nil
}

type execStep struct {
	step    event.Step
	payload json.RawMessage
}

// runSteps runs steps at once, each under the host's panic recovery, with
// the caller's environment.
func (c *execCall) runSteps(ctx context.Context, steps []execStep) ([]*engine.Decision, error) {
	ds := make([]*engine.Decision, len(steps))
	errs := make([]error, len(steps))
	var wg sync.WaitGroup
	for i, s := range steps {
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					errs[i] = fmt.Errorf("%s hooks: %w", s.step, c.h.panicErr(p))
				}
			}()
			ds[i], errs[i] = c.eng.Run(ctx, s.step, s.payload, engine.CallerEnv(c.env))
			if errs[i] != nil {
				errs[i] = fmt.Errorf("%s hooks: %w", s.step, errs[i])
			}
		})
	}
	wg.Wait()
	return ds, errors.Join(errs...)
}

// question is what the user is asked, and told when there is no yes.
func (c *execCall) question(why []string, detail string) *ExecAsk {
	return &ExecAsk{
		Question:     execQuestion(c.command, why),
		NoTerminal:   "agenthooks: a hook asks for confirmation and there is no terminal to ask on (--ask=allow runs such commands)" + detail,
		NotConfirmed: "agenthooks: not confirmed, not run" + detail,
		NoAnswer:     "agenthooks: no answer to the confirmation a hook asks for: ",
	}
}

// execQuestion is the question shown: the command and the hooks' messages.
func execQuestion(command string, why []string) string {
	var b strings.Builder
	b.WriteString("agenthooks: a hook asks before this command runs:\n")
	for _, line := range strings.Split(command, "\n") {
		b.WriteString("    " + line + "\n")
	}
	for _, w := range why {
		b.WriteString("  " + strings.ReplaceAll(w, "\n", "\n  ") + "\n")
	}
	b.WriteString("Run it? [y/N] ")
	return b.String()
}

// rewrite replaces the command with one a hook gave; it runs through the
// shell, since a hook speaks in command lines.
func (c *execCall) rewrite(command string) {
	c.command, c.argv, c.shellArgs = command, nil, nil
}

// argvToRun is how the command runs: as it is, or through the shell.
func (c *execCall) argvToRun() []string {
	if c.argv != nil {
		return c.argv
	}
	return append(proc.ForegroundShell(c.command), c.shellArgs...)
}

// payload returns a step's input with the fields every step of this call
// shares. Fields left out (generation_id, workspace_roots, …) are filled
// in by the engine.
func (c *execCall) payload(fields map[string]any) json.RawMessage {
	if c.conversation != "" {
		fields["conversation_id"] = c.conversation
	}
	fields["cwd"] = c.cwd
	return execJSON(fields)
}

// toolPayload is a preToolUse/postToolUse/postToolUseFailure input.
func (c *execCall) toolPayload(fields map[string]any) json.RawMessage {
	fields["tool_name"] = ExecToolName
	fields["tool_input"] = map[string]any{"command": c.command, "working_directory": c.cwd}
	fields["tool_use_id"] = c.toolUseID
	return c.payload(fields)
}

// state is what the report needs to run the after-hooks of this call.
func (c *execCall) state() *ExecCall {
	return &ExecCall{
		Roots:        c.roots,
		Cwd:          c.cwd,
		Command:      c.command,
		Conversation: c.conversation,
		ToolUseID:    c.toolUseID,
		Quiet:        c.quiet,
		Sandbox:      c.sb.on,
	}
}

// execJSON encodes a payload without HTML escaping: hooks are shell
// scripts as often as not, and one that greps for "2>&1" must find it.
func execJSON(v any) json.RawMessage {
	b, err := jsonplain.Marshal(v)
	if err != nil {
		// Maps of strings, numbers and booleans always encode.
		return json.RawMessage("{}")
	}
	return b
}

// execNewID returns a random id for tool_use_id.
func execNewID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return "agenthooks-" + hex.EncodeToString(b[:])
}

// updatedCommand returns the command of a preToolUse updated_input, when
// a hook gave one as a non-empty string.
func updatedCommand(d *engine.Decision) (string, bool) {
	if d == nil || len(d.UpdatedInput) == 0 {
		return "", false
	}
	var in struct {
		Command *string `json:"command"`
	}
	if json.Unmarshal(d.UpdatedInput, &in) != nil || in.Command == nil || *in.Command == "" {
		return "", false
	}
	return *in.Command, true
}
