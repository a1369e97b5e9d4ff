package policy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"cel.dev/cel-go/common/functions"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
	"github.com/agenthooks/agenthooks/policy/gitpush"
)

// Verdict is a policy's answer for one step.
//
// Every rule that applies to the step is evaluated in file order, and the
// most restrictive decision among the rules that match wins (deny > ask >
// allow), as the engine merges several hooks; the messages come from the
// first rule, in file order, that gave the winning decision. A deny ends
// the evaluation early: nothing can overrule it. No matching rule is no
// opinion, which is not allow.
type Verdict struct {
	Decision event.Permission
	// Rule is the rule whose decision and messages the verdict carries;
	// nil when no rule matched.
	Rule *Rule
	// Matched lists the rules that matched, in file order (up to the
	// first deny).
	Matched []*Rule
}

// EvalError is a rule whose condition failed at run time (a missing key,
// a wrong type). It fails the whole evaluation only when the rule could
// have made the verdict stricter than it is; otherwise it is ignored.
type EvalError struct {
	File string
	Rule *Rule
	Err  error
}

func (e *EvalError) Error() string {
	return fmt.Sprintf("%s:%d:%d: rule %q: evaluating when: %v (fix: guard the lookup with has(), or use command and the helpers)",
		e.File, e.Rule.WhenLine, e.Rule.WhenCol, e.Rule.Name, e.Err)
}

func (e *EvalError) Unwrap() error { return e.Err }

// DecideJSON evaluates the policy for step against a payload in Cursor's
// JSON shape. The payload is decoded only as far as the conditions need:
// the command line for `command`, the whole of it once a condition reads
// `input`.
func (p *Policy) DecideJSON(ctx context.Context, step event.Step, payload []byte, opts ...DecideOption) (Verdict, error) {
	if len(bytes.TrimSpace(payload)) == 0 {
		payload = []byte("{}")
	}
	// jsonscan, not json.Valid: a tool input nested past encoding/json's
	// 10000 levels is still a payload to judge, not one to refuse.
	if i := skipWS(payload, 0); i >= len(payload) || payload[i] != '{' || !jsonscan.Valid(payload) {
		return Verdict{}, errNotObject
	}
	return p.decideRaw(ctx, step, payload, opts...)
}

// decideRaw is DecideJSON for a payload known to be a JSON object (the
// engine checks every payload before it runs hooks).
func (p *Policy) decideRaw(ctx context.Context, step event.Step, payload []byte, opts ...DecideOption) (Verdict, error) {
	return p.decide(ctx, step, &activation{
		payload: payload,
		command: types.String(commandOfJSON(kindOf(step), payload)),
	}, opts)
}

// Decide evaluates the policy for step against a decoded payload. It
// returns an error only when a failed condition could have changed the
// verdict (see EvalError) or ctx ended.
func (p *Policy) Decide(ctx context.Context, step event.Step, input map[string]any, opts ...DecideOption) (Verdict, error) {
	return p.decide(ctx, step, &activation{
		input:    types.NewStringInterfaceMap(types.DefaultTypeAdapter, input),
		command:  types.String(commandOf(kindOf(step), input)),
		inputMap: input,
	}, opts)
}

func (p *Policy) decide(ctx context.Context, step event.Step, act *activation, opts []DecideOption) (Verdict, error) {
	for _, o := range opts {
		o(act)
	}
	i := event.Index(step)
	if i < 0 {
		return Verdict{}, fmt.Errorf("unknown step %q", step)
	}
	rules := p.byStep[i]
	if len(rules) == 0 {
		return Verdict{}, nil
	}
	act.step, act.vars, act.ctx = types.String(step), p.vars, ctx
	defer act.release()
	var v Verdict
	var failed []*EvalError
	for _, r := range rules {
		out, _, err := r.prg.ContextEval(ctx, act)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return Verdict{}, ctxErr
		}
		if err == nil {
			if _, ok := out.(types.Bool); !ok {
				err = fmt.Errorf("gave %s, not true or false", out.Type())
			}
		}
		if err != nil {
			failed = append(failed, &EvalError{File: p.File, Rule: r, Err: err})
			continue
		}
		if out != types.True {
			continue
		}
		v.Matched = append(v.Matched, r)
		if r.Decision.Rank() > v.Decision.Rank() {
			v.Decision, v.Rule = r.Decision, r
		}
		if v.Decision == event.Deny {
			break
		}
	}
	for _, e := range failed {
		if e.Rule.Decision.Rank() > v.Decision.Rank() {
			return Verdict{}, e
		}
	}
	return v, nil
}

// stepKind says where a step's payload holds the command line about to
// run.
type stepKind int

const (
	stepOther stepKind = iota
	stepShell          // beforeShellExecution: command
	stepTool           // preToolUse: tool_input.command (the Shell tool)
)

func kindOf(step event.Step) stepKind {
	switch step {
	case event.BeforeShellExecution:
		return stepShell
	case event.PreToolUse:
		return stepTool
	}
	return stepOther
}

// commandOf is the shell command line a step is about to run: the
// command of beforeShellExecution, the tool input's command for
// preToolUse (the Shell tool); "" otherwise. (beforeMCPExecution's
// command is the MCP server's, not something about to run.)
func commandOf(kind stepKind, input map[string]any) string {
	switch kind {
	case stepShell:
		s, _ := input["command"].(string)
		return s
	case stepTool:
		switch ti := input["tool_input"].(type) {
		case map[string]any:
			s, _ := ti["command"].(string)
			return s
		case string: // some hosts send the tool input as a JSON string
			var m map[string]any
			if json.Unmarshal([]byte(ti), &m) == nil {
				s, _ := m["command"].(string)
				return s
			}
		}
	}
	return ""
}

// activation gives a condition its variables without building a map per
// evaluation, and decodes the payload only when a condition reads input.
type activation struct {
	payload                    []byte
	input, step, command, vars ref.Val

	// inputMap is the payload when it came decoded (Decide).
	inputMap map[string]any
	// ctx is the decision's. gitCtx bounds, at gitpush.Timeout, all the time
	// one decision spends running git (gitPush may look up aliases for
	// several commands, for several rules); it is made when git first
	// runs and released when the decision ends.
	ctx       context.Context
	gitCtx    context.Context
	gitCancel context.CancelFunc
	// gitPush is the binding ResolveFunction gives, made once.
	gitPush functions.LateBoundOp
	dir     string
	dirRead bool
	// env is the environment the payload's commands run in (nil: this
	// process's): gitPush asks git with it.
	env []string
}

// DecideOption tells one decision about its caller.
type DecideOption func(*activation)

// CallerEnv decides with env as the environment the payload's commands
// run in: gitPush asks git for their aliases with its HOME, PATH and git
// variables. A host serving many callers (the resident engine) passes
// each caller's own; without it, the process's environment is used.
func CallerEnv(env []string) DecideOption {
	return func(a *activation) { a.env = env }
}

func (a *activation) gitContext() context.Context {
	if a.gitCtx == nil {
		a.gitCtx, a.gitCancel = context.WithTimeout(a.ctx, gitpush.Timeout)
	}
	return a.gitCtx
}

// release ends what the decision started.
func (a *activation) release() {
	if a.gitCancel != nil {
		a.gitCancel()
	}
}

// ResolveFunction binds the helpers that need the evaluation's context
// or payload (see newCELEnv).
func (a *activation) ResolveFunction(name string) (functions.LateBoundOp, bool) {
	if name != fnGitPush {
		return nil, false
	}
	if a.gitPush == nil {
		ctx := a.gitContext
		a.gitPush = func(_ string, args ...ref.Val) ref.Val {
			if len(args) != 1 {
				return types.NewErr("gitPush takes one argument")
			}
			return celGitPush(ctx, a.env, a.payloadDir(), args[0])
		}
	}
	return a.gitPush, true
}

// payloadDir is the directory the payload's command line starts in,
// read once.
func (a *activation) payloadDir() string {
	if !a.dirRead {
		a.dirRead = true
		if a.inputMap != nil {
			a.dir = dirOf(a.inputMap)
		} else {
			a.dir = dirOfJSON(a.payload)
		}
	}
	return a.dir
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case varInput:
		if a.input == nil {
			m := map[string]any{}
			if err := json.Unmarshal(a.payload, &m); err != nil {
				a.input = types.NewErr("decoding the payload: %v", err)
			} else {
				a.input = types.NewStringInterfaceMap(types.DefaultTypeAdapter, m)
			}
		}
		return a.input, true
	case varStep:
		return a.step, true
	case varCommand:
		return a.command, true
	case varVars:
		return a.vars, true
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

// Response is the verdict as a hook's answer for step: nil for no
// opinion.
func (v Verdict) Response(step event.Step) *event.Response {
	if v.Rule == nil {
		return nil
	}
	a := v.Rule.answers[event.Index(step)]
	if a == nil {
		return nil
	}
	r := a.resp
	return &r
}

// JSON is the verdict in Cursor's response shape for step, as a hook
// process prints it: `{}` for no opinion. The slice is the caller's.
func (v Verdict) JSON(step event.Step) []byte {
	return v.line(step, "")
}

// line is JSON followed by suffix, in a new slice: the prepared answers
// are shared by every decision and must not be appended to.
func (v Verdict) line(step event.Step, suffix string) []byte {
	out := []byte("{}")
	if v.Rule != nil {
		if a := v.Rule.answers[event.Index(step)]; a != nil {
			out = a.stdout
		}
	}
	b := make([]byte, 0, len(out)+len(suffix))
	return append(append(b, out...), suffix...)
}
