package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

// Explain says in words how the merge reached the decision, one line per
// point, for people debugging their hooks (`agenthooks test`).
func (d *Decision) Explain() []string {
	var lines []string
	say := func(format string, a ...any) { lines = append(lines, fmt.Sprintf(format, a...)) }
	if len(d.Hooks) == 0 {
		say("no hook ran: no opinion")
		return lines
	}
	for _, o := range d.Hooks {
		r := o.Result
		switch {
		case r.Failure != runner.OK && o.Hook.FailClosed:
			say("%s failed (%s: %s) and is failClosed: it counts as a block", name(o.Hook), r.Failure, r.Detail)
		case r.Failure != runner.OK:
			say("%s failed (%s: %s): fail-open, no opinion", name(o.Hook), r.Failure, r.Detail)
		case r.Blocked:
			say("%s exited with code 2: a block", name(o.Hook))
		}
	}
	switch {
	case d.Step.Gating():
		if d.Permission == event.NoOpinion {
			say("no hook gave a permission: no opinion (not the same as allow)")
			break
		}
		var from []string
		for _, o := range d.Hooks {
			if o.Said == string(d.Permission) || (d.Permission == event.Deny && (o.Said == "fail-closed" || (d.Step == event.SubagentStart && o.Said == "ask"))) {
				from = append(from, name(o.Hook))
			}
		}
		say("%s wins: the most restrictive permission (deny > ask > allow > no opinion), given by %s", d.Permission, strings.Join(from, ", "))
		if d.Step == event.SubagentStart && slices.ContainsFunc(d.Hooks, func(o Outcome) bool { return o.Said == "ask" }) {
			say("ask counts as deny for subagentStart")
		}
		if d.Permission == event.Deny && hasRewrite(d.Hooks) {
			say("updated_input/new_content dropped: the result is deny")
		}
		if len(d.UpdatedInput) > 0 {
			say("updated_input from %s (highest priority that gave one)", firstWith(d.Hooks, func(r *event.Response) bool { return len(r.UpdatedInput) > 0 }))
		}
		if d.NewContent != nil {
			say("new_content from %s (highest priority that gave one)", firstWith(d.Hooks, func(r *event.Response) bool { return r.NewContent != nil }))
		}
	case d.Step == event.BeforeSubmitPrompt:
		if d.Blocked() {
			var from []string
			for _, o := range d.Hooks {
				if o.Said == "block" || o.Said == "fail-closed" {
					from = append(from, name(o.Hook))
				}
			}
			say("submission blocked by %s: any block stops it", strings.Join(from, ", "))
		} else {
			say("no hook blocked the submission")
		}
	case d.Step == event.Stop || d.Step == event.SubagentStop:
		chosen := false
		for _, o := range d.Hooks {
			r := o.Result.Response
			if r == nil || r.FollowupMessage == "" {
				continue
			}
			switch {
			case !o.Hook.LoopLimit.Allows(d.LoopCount):
				say("%s: follow-up skipped, loop_count %d reached its loop_limit %d", name(o.Hook), d.LoopCount, o.Hook.LoopLimit.N)
			case d.FollowupMessage == "":
				say("%s: follow-up skipped, subagentStop follow-ups need status completed", name(o.Hook))
			case !chosen:
				chosen = true
				say("follow-up from %s (highest priority that gave one within its loop_limit; loop_count %d)", name(o.Hook), d.LoopCount)
			default:
				say("%s: follow-up not used, a higher-priority hook's won", name(o.Hook))
			}
		}
		if !chosen {
			say("no follow-up")
		}
	case d.Step == event.SessionStart:
		if len(d.Env) > 0 {
			keys := make([]string, 0, len(d.Env))
			for k := range d.Env {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			say("env %s: merged key by key, higher priority wins; later hooks of the session see each variable from their own source or a higher one", strings.Join(keys, ", "))
		}
	}
	return lines
}

// name identifies a hook in messages: its source, what it runs (a prompt
// hook's prompt, shortened) and where it is defined.
func name(h *config.Hook) string {
	what := h.Command
	if h.Type == config.TypePrompt {
		what = h.Prompt
		if r := []rune(what); len(r) > 60 {
			what = string(r[:59]) + "…"
		}
	}
	return fmt.Sprintf("%s hook %q (%s)", h.Source, what, h.ID())
}

func hasRewrite(outcomes []Outcome) bool {
	return firstWith(outcomes, func(r *event.Response) bool { return len(r.UpdatedInput) > 0 || r.NewContent != nil }) != ""
}

func firstWith(outcomes []Outcome, ok func(*event.Response) bool) string {
	for _, o := range outcomes {
		if r := o.Result.Response; r != nil && ok(r) {
			return name(o.Hook)
		}
	}
	return ""
}
