package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/hookshape"
	"github.com/agenthooks/agenthooks/runner"
	"github.com/agenthooks/agenthooks/session"
)

// Run runs every hook configured for step whose matcher accepts the
// payload, and returns their merged decision. payload is the step's input
// in Cursor's shape: JSON bytes (json.RawMessage or []byte), a *Payload
// already read by ParsePayload, or any value that marshals to a JSON
// object, such as the event package's typed inputs. Common fields the
// payload lacks are filled in.
//
// Run returns an error only when it could not run at all (unknown step,
// payload not a JSON object); what the hooks did, failures included, is in
// the Decision. opts say who the caller is (CallerEnv, CallerAgent).
func (e *Engine) Run(ctx context.Context, step event.Step, payload any, opts ...RunOption) (*Decision, error) {
	d, _, err := e.run(ctx, step, payload, false, callerOf(opts))
	return d, err
}

// DryRun runs the hooks exactly as Run does and returns the decision with
// a trace of how every configured hook of the step was matched, but
// remembers nothing: no session change, no execution record. It is what
// `agenthooks test` shows.
func (e *Engine) DryRun(ctx context.Context, step event.Step, payload any, opts ...RunOption) (*Decision, []Match, error) {
	return e.run(ctx, step, payload, true, callerOf(opts))
}

func (e *Engine) run(ctx context.Context, step event.Step, payload any, dry bool, c caller) (*Decision, []Match, error) {
	idx := event.Index(step)
	if idx < 0 {
		return nil, nil, fmt.Errorf("run: unknown step %q", step)
	}
	snap := e.snap.Load()
	p, err := parsePayload(payload)
	if err != nil {
		return nil, nil, fmt.Errorf("run %s: %w", step, err)
	}
	configured := snap.byStep[idx]
	if len(configured) == 0 && !dry {
		// Nothing to run: no session read or write, except that a
		// session's end always forgets it.
		if step == event.SessionEnd {
			e.forget(ctx, sessionID(p.fields))
		}
		return &Decision{Step: step}, nil, nil
	}
	e.fillCommon(step, p)
	fields := p.fields
	conv := stringField(fields, "conversation_id")

	// The session is read only when this step needs it: for its loop
	// count, or for the env of hooks that run. A step whose hooks all
	// miss costs no read.
	var sess session.Session
	read := false
	readSession := func() session.Session {
		if !read {
			read = true
			var err error
			if sess, err = e.opts.Sessions.Get(ctx, conv); err != nil {
				// The hooks still run: a broken session store must not
				// switch policy off. They run without the session's env
				// and counts.
				e.opts.Logger.WarnContext(ctx, "session unreadable; hooks run without it", "conversation", conv, "err", err)
				sess = session.Session{}
			}
		}
		return sess
	}
	in := mergeInput{
		step:     step,
		toolName: stringField(fields, "tool_name"),
		status:   stringField(fields, "status"),
	}
	loopKey := loopKey(step, fields)
	if loopKey != "" {
		in.loopCount = readSession().LoopCounts[loopKey]
		if raw, ok := fields["loop_count"]; ok {
			// The host's own count is taken when higher: a host that counts
			// knows its conversation, and one that always sends 0 (a typed
			// input's zero value) must not switch the loop limit off.
			if n, err := strconv.Atoi(string(raw)); err == nil && n > in.loopCount {
				in.loopCount = n
			}
		}
		p.set("loop_count", json.RawMessage(strconv.Itoa(in.loopCount)))
	}

	matches := match(step, fields, configured)
	hooks := make([]*config.Hook, 0, len(matches))
	var undecided map[*config.Hook]error
	for _, m := range matches {
		if m.Matched {
			hooks = append(hooks, m.Hook)
		}
		if m.Err != nil {
			if undecided == nil {
				undecided = map[*config.Hook]error{}
			}
			undecided[m.Hook] = m.Err
		}
	}
	var outcomes []Outcome
	var body []byte
	if len(hooks) > 0 {
		if body, err = p.encode(); err != nil {
			return nil, nil, fmt.Errorf("run %s: encode payload: %w", step, err)
		}
		outcomes = e.execute(ctx, step, hooks, undecided, body, e.baseEnv(c, fields, e.envSession(hooks, readSession)))
	}
	d := merge(in, outcomes)
	setBlockMessages(d, stringField(fields, "file_path"), in.toolName)
	if !dry {
		e.remember(ctx, conv, loopKey, d)
		if len(outcomes) > 0 {
			e.record(ctx, step, conv, body, p.shallow, d, c.agent)
		}
	}
	return d, matches, nil
}

// Match is how one configured hook fared against a payload's match value.
type Match struct {
	Hook *config.Hook
	// Matched reports whether the hook runs for this payload.
	Matched bool
	// Target is the value the matcher was tested against; Ignored means
	// the step has no match value, so every hook of the step runs.
	Target  string
	Ignored bool
	// Err is set when the matcher could not decide (it ran out of time,
	// or could not be compiled on its first use): the hook is in the
	// run, counted as failed without running.
	Err error
}

// shapedTargets are the match targets of one shape for the step.
type shapedTargets struct {
	shape   hookshape.Shape
	targets []string
	ok      bool
}

// match tests every configured hook of the step, in priority order. Hooks
// from other agents' settings files are tested by their agent's rules,
// against that agent's names for the same thing (Hook.Shape), worked out
// once per shape.
func match(step event.Step, fields map[string]json.RawMessage, hooks []*config.Hook) []Match {
	target, ok := event.MatchTarget(step, fields)
	var shaped []shapedTargets
	out := make([]Match, len(hooks))
	for i, h := range hooks {
		if h.Shape == nil {
			m := Match{Hook: h, Target: target, Ignored: !ok, Matched: !ok}
			if ok {
				m.Matched, m.Err = h.MatchValue(target)
				m.Matched = m.Matched || m.Err != nil
			}
			out[i] = m
			continue
		}
		j := slices.IndexFunc(shaped, func(s shapedTargets) bool { return s.shape == h.Shape })
		if j < 0 {
			ts, tok := h.Shape.Targets(step, fields)
			shaped = append(shaped, shapedTargets{h.Shape, ts, tok})
			j = len(shaped) - 1
		}
		st := shaped[j]
		m := Match{Hook: h, Ignored: !st.ok, Matched: !st.ok}
		if st.ok {
			targets := st.targets
			if mt, ok := h.Shape.(hookshape.MatcherTargeter); ok {
				if more := mt.MatcherTargets(step, fields, h.Matcher); len(more) > 0 {
					targets = append(slices.Clip(targets), more...)
				}
			}
			m.Target = strings.Join(targets, " | ")
			for _, t := range targets {
				ok, err := h.MatchValue(t)
				if ok {
					m.Matched, m.Err = true, nil
					break
				}
				if err != nil {
					m.Matched, m.Err = true, err
				}
			}
		}
		out[i] = m
	}
	return out
}

// execute runs the hooks, in parallel unless the step or the options want
// them in sequence, and returns their outcomes in priority order. The
// undecided hooks (their matcher could not decide) fail without running.
func (e *Engine) execute(ctx context.Context, step event.Step, hooks []*config.Hook, undecided map[*config.Hook]error, body []byte, env runEnv) []Outcome {
	outcomes := make([]Outcome, len(hooks))
	bodies := shapedPayloads(step, hooks, body)
	runOne := func(i int) {
		h := hooks[i]
		if err, ok := undecided[h]; ok {
			// Whether it applies is unknown: it fails, without running.
			outcomes[i] = Outcome{Hook: h, Result: runner.Result{Failure: runner.MatcherTimeout, Detail: err.Error(), ExitCode: -1}}
			return
		}
		b := body
		if h.Shape != nil {
			b = bodies[h.Shape]
		}
		outcomes[i] = Outcome{Hook: h, Result: e.runHook(ctx, step, h, b, env)}
	}
	if e.opts.Sequential || step.Sequential() || len(hooks) == 1 {
		for i := range hooks {
			runOne(i)
		}
		return outcomes
	}
	// The bound is per step: a resident host runs many steps at once, and
	// one step's hooks must never wait on another's (a hook may itself
	// run agenthooks).
	sem := make(chan struct{}, e.opts.MaxParallel)
	var wg sync.WaitGroup
	for i := range hooks {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			// Hooks not yet started are canceled, not silently dropped.
			for j := i; j < len(hooks); j++ {
				outcomes[j] = Outcome{Hook: hooks[j], Result: runner.Result{Failure: runner.Canceled, Detail: ctx.Err().Error(), ExitCode: -1}}
			}
			wg.Wait()
			return outcomes
		}
		wg.Go(func() {
			defer func() { <-sem }()
			runOne(i)
		})
	}
	wg.Wait()
	return outcomes
}

// shapedPayloads are the payloads in each shape of the hooks from other
// agents' settings files, translated once per shape; nil when there are
// none. The Cursor payload was encoded by the engine, so it always
// translates; if it did not, the hooks get the Cursor payload rather than
// none.
func shapedPayloads(step event.Step, hooks []*config.Hook, body []byte) map[hookshape.Shape][]byte {
	var out map[hookshape.Shape][]byte
	for _, h := range hooks {
		if h.Shape == nil {
			continue
		}
		if _, done := out[h.Shape]; done {
			continue
		}
		if out == nil {
			out = map[hookshape.Shape][]byte{}
		}
		b, err := h.Shape.Input(step, body)
		if err != nil {
			b = body
		}
		out[h.Shape] = b
	}
	return out
}

func (e *Engine) runHook(ctx context.Context, step event.Step, h *config.Hook, body []byte, env runEnv) runner.Result {
	r, ok := e.opts.Runners[h.Type]
	if !ok {
		return runner.Result{Failure: runner.Unsupported, ExitCode: -1,
			Detail: fmt.Sprintf("no runner for hook type %q in this build", h.Type)}
	}
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = e.opts.DefaultTimeout
		if h.Type == config.TypePrompt {
			timeout = e.opts.PromptTimeout
		}
	}
	res := safeRun(ctx, r, runner.Request{
		Hook:    h,
		Step:    step,
		Payload: body,
		Env:     env.forHook(h),
		Timeout: timeout,
	})
	if step == event.SessionStart {
		e.screenEnv(ctx, h, &res)
	}
	return res
}

// remember updates the session: sessionStart's env and context, the
// follow-up loop counts, and forgets the session at sessionEnd.
func (e *Engine) remember(ctx context.Context, conv, loopKey string, d *Decision) {
	if conv == "" {
		return
	}
	var err error
	switch {
	case d.Step == event.SessionEnd:
		e.forget(ctx, conv)
		return
	case d.Step == event.SessionStart && (len(d.Env) > 0 || d.AdditionalContext != ""):
		err = e.opts.Sessions.Update(ctx, conv, func(s *session.Session) {
			for k, v := range d.Env {
				s.SetEnv(k, v, envSource(d.Hooks, k, e.sources), e.sources)
			}
			s.AdditionalContext = d.AdditionalContext
		})
	case loopKey != "":
		err = e.opts.Sessions.Update(ctx, conv, func(s *session.Session) {
			if d.FollowupMessage == "" {
				// The chain of automatic follow-ups ended: start over.
				delete(s.LoopCounts, loopKey)
				return
			}
			if s.LoopCounts == nil {
				s.LoopCounts = map[string]int{}
			}
			// An increment of what is stored now, not of what this run
			// read: concurrent stops of one conversation each count.
			s.LoopCounts[loopKey] = max(s.LoopCounts[loopKey], d.LoopCount) + 1
		})
	}
	if err != nil {
		e.opts.Logger.WarnContext(ctx, "session update failed", "conversation", conv, "err", err)
	}
}

// forget deletes a session.
func (e *Engine) forget(ctx context.Context, conv string) {
	if conv == "" {
		return
	}
	if err := e.opts.Sessions.Delete(ctx, conv); err != nil {
		e.opts.Logger.WarnContext(ctx, "session delete failed", "conversation", conv, "err", err)
	}
}

// record adds one record per executed hook to the in-memory log and the sink.
func (e *Engine) record(ctx context.Context, step event.Step, conv string, body []byte, checked bool, d *Decision, agent string) {
	now := time.Now()
	recs := make([]audit.Record, len(d.Hooks))
	summary := d.Summary()
	for i, o := range d.Hooks {
		r := o.Result
		rec := audit.Record{
			ID:             audit.NewID(now),
			Time:           now,
			Step:           string(step),
			ConversationID: conv,
			Command:        o.Hook.Command,
			Type:           o.Hook.Type,
			Source:         o.Hook.Source.String(),
			File:           o.Hook.File,
			Index:          o.Hook.Index,
			Payload:        body,
			PayloadChecked: checked,
			DurationMS:     float64(r.Duration.Microseconds()) / 1000,
			ExitCode:       r.ExitCode,
			Stderr:         stderrMessage(r.Stderr),
			Failure:        string(r.Failure),
			Outcome:        o.Said,
			Decision:       summary,
			Agent:          agent,
		}
		if o.Hook.Type == config.TypePrompt {
			rec.Command = o.Hook.Prompt
		}
		if r.Response != nil {
			rec.Response = r.Response.Raw
		}
		if r.Failure != runner.OK {
			rec.Stderr = withDetail(r.Detail, rec.Stderr)
		}
		if r.Warning != "" {
			rec.Stderr = withDetail("warning: "+r.Warning, rec.Stderr)
			e.opts.Logger.WarnContext(ctx, "hook answer read with a warning", "step", step, "hook", o.Hook.ID(), "warning", r.Warning)
		}
		recs[i] = rec
	}
	e.ring.Add(ringRecords(recs, e.opts.Sink != nil)...)
	if e.opts.Sink != nil {
		if err := e.opts.Sink.Write(ctx, recs); err != nil {
			e.opts.Logger.WarnContext(ctx, "execution log sink failed", "err", err)
		}
	}
}

// ringPayloadMax is the largest payload the in-memory ring keeps when a
// sink has the records: a long-lived engine must not hold its last
// hundred payloads (whole files, some of them) in memory.
const ringPayloadMax = 64 << 10

// ringRecords are the records as the ring keeps them.
func ringRecords(recs []audit.Record, sunk bool) []audit.Record {
	if !sunk || len(recs) == 0 || len(recs[0].Payload) <= ringPayloadMax {
		return recs
	}
	kept := make([]audit.Record, len(recs))
	for i, r := range recs {
		r.Payload = nil
		kept[i] = r
	}
	return kept
}

// envSession is the session whose env the hooks get: read only when one
// of them starts a process.
func (e *Engine) envSession(hooks []*config.Hook, readSession func() session.Session) session.Session {
	for _, h := range hooks {
		if ip, ok := e.opts.Runners[h.Type].(runner.InProcess); !ok || !ip.InProcess(h) {
			return readSession()
		}
	}
	return session.Session{}
}
