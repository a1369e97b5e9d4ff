package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/faultinject"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/internal/settings"
)

// Request is one step to answer: a Cursor step with its Cursor-shaped
// payload, or (Agent set) an agent's own hook event and payload.
type Request struct {
	// Step is the Cursor step; ignored when Agent is set.
	Step event.Step
	// Agent is a dialect name (claude, codex, gemini, copilot, opencode,
	// contract); "" means the payload is Cursor's shape.
	Agent string
	// Event is the agent's event name when the caller knows it (the
	// payload's own wins).
	Event string
	// Payload is the bytes as the agent sent them.
	Payload []byte
	// PayloadKept says Payload stays as it is after Run returns (it was
	// read for this step alone, as the CLI reads its stdin): the hooks
	// and the log then use it, not a copy of a file read's megabytes. A
	// caller that reuses its buffer leaves it false.
	PayloadKept bool
	// PayloadErr is set when the payload could not be read at all (too
	// large, a broken pipe): the step is then a fault.
	PayloadErr error
	// Workspaces are workspace roots named by the caller (--workspace);
	// they win over the agent's project directory, but a Cursor payload's
	// workspace_roots wins over them.
	Workspaces []string
	// Dir is the caller's working directory, the last resort for the
	// workspace root; "" means this process's.
	Dir string
	// Approve passes an explicit allow on to agents as an approval.
	Approve bool
	// Env is the caller's environment, which hooks inherit in place of
	// Options.Environ: for a host that serves many callers. nil means
	// Options.Environ.
	Env []string
}

// Reply is the answer, ready to write: stdout bytes, stderr lines and the
// exit code, in the asking agent's convention.
type Reply struct {
	Stdout []byte
	// Stderr is what the agent may show (for an exit-2 block, the
	// reason); Notes and Warnings are kept apart so a caller can keep a
	// blocking stderr clean.
	Stderr string
	Code   int
	// Decision is the Cursor step's merged decision (nil for agents).
	Decision *engine.Decision
	// Env is the session env a sessionStart hook set, for an agent's env
	// file.
	Env map[string]string
	// Fault is why agenthooks could not decide, when it could not.
	Fault error
	// Interrupted is set when ctx ended before the hooks decided.
	Interrupted bool
	// Problems are the sources' load problems; Notes what --verbose shows;
	// Warnings the host's warnings raised during this run (OpenWarnings
	// holds those raised before any run).
	Problems []string
	Notes    []string
	Warnings []string
}

// Run answers one step. It always answers: a fault of agenthooks' own is
// answered as Fault documents, never by an error.
func (h *Host) Run(ctx context.Context, req Request) (rep *Reply) {
	ctx, rw := withRunWarnings(ctx)
	defer func() {
		if rep != nil {
			rep.Warnings = rw.take()
		}
	}()
	if req.Agent != "" {
		a, ok := agents.Lookup(req.Agent)
		if !ok {
			return &Reply{Code: 2, Stderr: fmt.Sprintf("agenthooks: unknown agent %q: use one of %s", req.Agent, strings.Join(agents.Names(), ", "))}
		}
		return h.runAgent(ctx, a.Dialect, req)
	}
	return h.runCursor(ctx, req)
}

// caller is who asks, as the engine's runs take it: the caller's
// environment for the hooks, and its agent for the log.
func (req Request) caller() []engine.RunOption {
	return []engine.RunOption{engine.CallerEnv(req.Env), engine.CallerAgent(req.Agent)}
}

// runCursor answers a Cursor step.
func (h *Host) runCursor(ctx context.Context, req Request) (rep *Reply) {
	// The payload is read once, here: its workspace_roots choose the
	// configuration, and the engine runs on the same reading (a
	// beforeReadFile payload carries a whole file). One that cannot be
	// read goes to the engine as bytes, which fails it with its own error.
	raw := req.Payload
	if !req.PayloadKept {
		// The log keeps the hooks' input past Run: not the caller's buffer.
		raw = bytes.Clone(raw)
	}
	var payload any = raw
	parsed, perr := engine.ParsePayload(raw)
	if perr == nil {
		payload = parsed
	}
	roots := h.cursorRoots(ctx, req, parsed)
	defer func() {
		if p := recover(); p != nil {
			rep = h.cursorFault(ctx, req, roots, h.panicErr(p))
		}
	}()
	if req.PayloadErr != nil {
		return h.cursorFault(ctx, req, roots, req.PayloadErr)
	}
	eng, err := h.Engine(roots, config.Skip{})
	if err != nil {
		return h.cursorFault(ctx, req, roots, err)
	}
	faultinject.At("run")
	d, err := eng.Run(ctx, req.Step, payload, req.caller()...)
	if err == nil && missedProgram(d) && h.stale(roots, config.Skip{}) {
		// Run against files swapped under it: once more, on the new set.
		if eng, err = h.Engine(roots, config.Skip{}); err == nil {
			d, err = eng.Run(ctx, req.Step, payload, req.caller()...)
		}
	}
	if err != nil {
		return h.cursorFault(ctx, req, roots, err)
	}
	rep = &Reply{Decision: d, Problems: problems(eng)}
	if ctx.Err() != nil {
		// The hooks were stopped: there is no decision, and {} would read
		// as "no opinion".
		rep.Interrupted = true
		rep.Code = 130
		rep.Stderr = "agenthooks: interrupted: the hooks were stopped, no decision"
		return rep
	}
	rep.Stdout = responseJSON(d)
	return rep
}

// cursorFault answers a Cursor step agenthooks could not decide: blocked
// if a hook that would have applied is failClosed, else no opinion; a
// warning either way, exit 0 (the decision is in the JSON, as always).
func (h *Host) cursorFault(ctx context.Context, req Request, roots []string, cause error) *Reply {
	h.warn(ctx, "could not decide %s: %v", req.Step, cause)
	rep := &Reply{Fault: cause}
	var d *engine.Decision
	if eng, err := h.safeEngine(roots, config.Skip{}); err == nil {
		rep.Problems = problems(eng)
		payload := req.Payload
		if req.PayloadErr != nil {
			payload = nil
		}
		d = safeFault(ctx, eng, req.Step, payload, cause, req.caller())
	}
	if d == nil {
		// Not even the configuration could be read: a gate closes.
		d = closedDecision(req.Step, cause)
	}
	rep.Decision = d
	rep.Stdout = responseJSON(d)
	return rep
}

// runAgent answers one of an agent's hook events.
func (h *Host) runAgent(ctx context.Context, d *agent.Dialect, req Request) (rep *Reply) {
	opts := agent.Options{Approve: req.Approve}
	var r *agent.Request
	defer func() {
		if p := recover(); p != nil {
			rep = h.agentFault(ctx, d, req, r, h.panicErr(p))
		}
	}()
	if req.PayloadErr != nil {
		return h.agentFault(ctx, d, req, nil, req.PayloadErr)
	}
	r, err := d.Parse(req.Payload, req.Event)
	if err != nil {
		return h.agentFault(ctx, d, req, nil, err)
	}
	rep = &Reply{}
	if req.Event != "" && r.Event != req.Event {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the payload names the %s event %q, not %q as the command line does; the payload's is used", d.Title, r.Event, req.Event))
	}
	if r.Kind == agent.None {
		rep.Notes = append(rep.Notes, r.Note)
		return rep.answer(d.Answer(r, nil, opts))
	}
	roots := h.agentRoots(d, req, r)
	skip := agents.SkipOf(d.RunsItself)
	eng, err := h.Engine(roots, skip)
	if err != nil {
		return h.agentFault(ctx, d, req, r, err)
	}
	rep.Problems = problems(eng)
	faultinject.At("run")
	ds, notes, err := h.runCalls(ctx, eng, r.Calls, req.caller())
	if err == nil && missedProgram(ds...) && h.stale(roots, skip) {
		// Run against files swapped under it: once more, on the new set.
		if eng, err = h.Engine(roots, skip); err == nil {
			ds, notes, err = h.runCalls(ctx, eng, r.Calls, req.caller())
		}
	}
	rep.Notes = append(rep.Notes, notes...)
	if err != nil {
		return h.agentFault(ctx, d, req, r, err)
	}
	v := agent.Merge(ds)
	if again := r.Recheck(v); len(again) > 0 {
		more, notes, err := h.runCalls(ctx, eng, again, req.caller())
		rep.Notes = append(rep.Notes, notes...)
		if err != nil {
			return h.agentFault(ctx, d, req, r, err)
		}
		first := v
		v = agent.Merge(append(ds, more...))
		deny := func(why string) {
			msg := "agenthooks: " + why + "; the action is blocked"
			v.Permission, v.Reason, v.UserMessage, v.UpdatedInput = event.Deny, msg, msg, nil
		}
		if r.Rewritten(first, more) {
			deny("the hooks rewrote the tool input again when shown their own rewrite, so what would run was judged by no hook")
		} else if err := r.RewriteProblem(v); err != nil && v.Permission != event.Deny {
			deny("a hook's rewrite left a tool call no hook can judge (" + err.Error() + ")")
		}
	}
	if ctx.Err() != nil {
		// Hooks cut short fail open; deciding on their answers would let
		// the action through unjudged.
		rep.Interrupted = true
		return rep.answer(d.Fail(fmt.Errorf("interrupted before the hooks decided: %w", ctx.Err())))
	}
	return rep.answer(d.Answer(r, v, opts))
}

// agentFault answers an agent event agenthooks could not decide. With the
// event's steps known (the payload was read), each step is decided as if
// its applicable hooks had all failed and the answer is the agent's usual
// one; without them, every gating step the event could be counts, and a
// block is the agent's plain refusal. Nothing failClosed: the agent's
// failed-hook convention, a warning that changes nothing.
func (h *Host) agentFault(ctx context.Context, d *agent.Dialect, req Request, r *agent.Request, cause error) *Reply {
	h.warn(ctx, "could not decide the %s event: %v", d.Title, cause)
	rep := &Reply{Fault: cause}
	roots := h.agentRoots(d, req, r)
	eng, err := h.safeEngine(roots, agents.SkipOf(d.RunsItself))
	if err != nil {
		// Not even the configuration could be read: a gate closes.
		return rep.answer(d.Refuse("agenthooks: " + cause.Error() + "; the action is blocked because agenthooks cannot read its hooks configuration"))
	}
	rep.Problems = problems(eng)
	if r != nil && len(r.Calls) > 0 {
		ds := make([]*engine.Decision, len(r.Calls))
		blocked := false
		for i, c := range r.Calls {
			body, _ := c.JSON()
			ds[i] = safeFault(ctx, eng, c.Step, body, cause, req.caller())
			if ds[i] == nil {
				ds[i] = closedDecision(c.Step, cause)
			}
			blocked = blocked || ds[i].Blocked()
		}
		if blocked {
			return rep.answer(d.Answer(r, agent.Merge(ds), agent.Options{}))
		}
		return rep.answer(d.Fail(cause))
	}
	ev := req.Event
	var pe *agent.ParseError
	if errors.As(cause, &pe) && pe.Event != "" {
		ev = pe.Event
	}
	for _, step := range candidateSteps(ev, pe) {
		if dd := safeFault(ctx, eng, step, nil, cause, req.caller()); dd == nil || dd.Blocked() {
			return rep.answer(d.Refuse(fmt.Sprintf("agenthooks: %v; the action is blocked because a fail-closed hook would have decided it", cause)))
		}
	}
	return rep.answer(d.Fail(cause))
}

// gateSteps are the Cursor steps a tool event can run.
var gateSteps = []event.Step{event.PreToolUse, event.BeforeShellExecution, event.BeforeMCPExecution, event.BeforeReadFile, event.SubagentStart}

// candidateSteps are the steps an event whose payload could not be read
// might have run: a tool event's gates, a prompt's submission, and every
// one of them when not even the event is known.
func candidateSteps(ev string, pe *agent.ParseError) []event.Step {
	var out []event.Step
	tool, prompt := agents.MayGate(ev)
	if tool || (pe != nil && pe.Gating) {
		out = append(out, gateSteps...)
	}
	if prompt {
		out = append(out, event.BeforeSubmitPrompt)
	}
	return out
}

// answer fills the reply from a dialect answer.
func (rep *Reply) answer(a agent.Answer) *Reply {
	rep.Stdout, rep.Code, rep.Env = a.Stdout, a.Code, a.Env
	rep.Stderr = strings.TrimRight(a.Stderr, "\n")
	return rep
}

// runCalls runs the steps of one agent event at once (they are
// independent, and the agent waits for the slowest), after reading the
// files beforeReadFile hooks are shown. Decisions come back in the order
// of the calls.
func (h *Host) runCalls(ctx context.Context, eng *engine.Engine, calls []agent.Call, caller []engine.RunOption) ([]*engine.Decision, []string, error) {
	var notes []string
	for _, err := range agent.LoadContents(calls, agent.ReadBounded(agent.MaxContent)) {
		notes = append(notes, err.Error())
	}
	ds := make([]*engine.Decision, len(calls))
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		body, err := c.JSON()
		if err != nil {
			return nil, notes, fmt.Errorf("%s payload: %w", c.Step, err)
		}
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					errs[i] = h.panicErr(p)
				}
			}()
			ds[i], errs[i] = eng.Run(ctx, c.Step, body, caller...)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, notes, err
	}
	return ds, notes, nil
}

// safeEngine is Engine that survives a panic while loading.
func (h *Host) safeEngine(roots []string, skip config.Skip) (e *engine.Engine, err error) {
	defer func() {
		if p := recover(); p != nil {
			e, err = nil, h.panicErr(p)
		}
	}()
	return h.Engine(roots, skip)
}

// safeFault is Engine.Fault that survives a panic: nil then, which the
// callers answer as a closed gate.
func safeFault(ctx context.Context, eng *engine.Engine, step event.Step, payload []byte, cause error, caller []engine.RunOption) (d *engine.Decision) {
	defer func() {
		if recover() != nil {
			d = nil
		}
	}()
	return eng.Fault(ctx, step, payload, cause, caller...)
}

// closedDecision blocks a gating step (and a prompt submission) outright:
// the answer when agenthooks cannot read even its configuration, so it
// cannot know that no fail-closed hook applies.
func closedDecision(step event.Step, cause error) *engine.Decision {
	d := &engine.Decision{Step: step}
	msg := "agenthooks could not read its hooks configuration: " + cause.Error()
	switch {
	case step.Gating():
		d.Permission = event.Deny
	case step == event.BeforeSubmitPrompt:
		f := false
		d.Continue = &f
	default:
		return d
	}
	d.UserMessage, d.AgentMessage = msg, msg
	d.ClientMessage, d.ModelMessage = msg, msg
	return d
}

// panicErr turns a recovered panic into an error for the answer and the
// log; the stack, for a bug report, goes to the warnings only.
func (h *Host) panicErr(p any) error {
	h.Warnf("internal error: panic: %v\n%s", p, debug.Stack())
	return fmt.Errorf("internal error (a bug in agenthooks; please report it): panic: %v", p)
}

// responseJSON is a decision in Cursor's response shape, one line.
func responseJSON(d *engine.Decision) []byte {
	b, err := jsonplain.Marshal(d.Response())
	if err != nil {
		// The response holds strings and JSON the engine validated.
		return []byte("{}\n")
	}
	return append(b, '\n')
}

func problems(eng *engine.Engine) []string {
	ps := eng.Problems()
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Error()
	}
	return out
}

// cursorRoots picks a Cursor step's workspace roots: the payload's
// workspace_roots, else the caller's, else the working directory; always
// absolute. A workspace_roots of the wrong type is a warning, not a fault:
// the other roots still find the hooks.
func (h *Host) cursorRoots(ctx context.Context, req Request, payload *engine.Payload) []string {
	roots, err := payloadRoots(payload)
	if err != nil {
		h.warn(ctx, "%v; the workspace roots come from --workspace or the working directory", err)
	}
	if len(roots) == 0 {
		roots = req.Workspaces
	}
	return h.absRoots(roots, req.Dir)
}

// agentRoots picks an agent hook's workspace roots: the caller's, else
// the agent's project-dir variable, else the payload's cwd, else the
// working directory.
func (h *Host) agentRoots(d *agent.Dialect, req Request, r *agent.Request) []string {
	roots := req.Workspaces
	if len(roots) == 0 {
		getenv := h.getenv
		if req.Env != nil {
			getenv = settings.Getenv(req.Env)
		}
		for _, v := range d.ProjectDirVars {
			if dir := getenv(v); dir != "" {
				roots = []string{dir}
				break
			}
		}
	}
	if len(roots) == 0 && r != nil && r.Cwd != "" {
		roots = []string{r.Cwd}
	}
	return h.absRoots(roots, req.Dir)
}

// absRoots makes roots absolute against dir; none means dir itself.
func (h *Host) absRoots(roots []string, dir string) []string {
	if dir == "" {
		if wd, err := os.Getwd(); err == nil {
			dir = wd
		}
	}
	if len(roots) == 0 {
		if dir == "" {
			return []string{}
		}
		return []string{dir}
	}
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		if !filepath.IsAbs(r) {
			r = filepath.Join(dir, r)
		}
		out = append(out, filepath.Clean(r))
	}
	return out
}
