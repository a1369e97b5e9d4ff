package engine

import (
	"fmt"
	"maps"
	"strings"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

// mergeInput is what the merge needs to know about the step besides the
// hooks' answers.
type mergeInput struct {
	step      event.Step
	toolName  string // preToolUse/postToolUse: decides MCP-only fields
	status    string // subagentStop: follow-ups only when "completed"
	loopCount int    // stop/subagentStop
}

// answer is one hook's result as the merge reads it.
type answer struct {
	blocked     bool // exit 2, or a fail-closed failure
	perm        event.Permission
	resp        *event.Response
	user, agent string
}

// read interprets one outcome, and records on it what it counted as.
func read(step event.Step, o *Outcome) answer {
	r := o.Result
	switch {
	case r.Failure != runner.OK && o.Hook.FailClosed:
		msg := fmt.Sprintf("%s failed and is fail-closed: %s: %s", name(o.Hook), r.Failure, r.Detail)
		// The model sees which hook, not its command line or stderr, which
		// may hold an enterprise's tokens; the user and the log see all.
		agent := fmt.Sprintf("A %s hook (%s) failed and is fail-closed (%s).", o.Hook.Source, o.Hook.ID(), r.Failure)
		o.Said = "fail-closed"
		return answer{blocked: true, perm: event.Deny, user: msg, agent: agent}
	case r.Failure != runner.OK:
		o.Said = "failed"
		return answer{}
	case r.Blocked:
		a := answer{blocked: true, perm: event.Deny, resp: r.Response}
		if r.Response != nil && (r.Response.UserMessage != "" || r.Response.AgentMessage != "") {
			a.user, a.agent = r.Response.UserMessage, r.Response.AgentMessage
		} else {
			msg := stderrMessage(r.Stderr)
			a.user, a.agent = msg, msg
		}
		o.Said = "block"
		if step.Gating() {
			o.Said = "deny"
		}
		return a
	case r.Response == nil:
		o.Said = "none"
		return answer{}
	}
	a := answer{resp: r.Response, perm: r.Response.Permission, user: r.Response.UserMessage, agent: r.Response.AgentMessage}
	switch {
	case step.Gating() && a.perm != event.NoOpinion:
		o.Said = string(a.perm)
	case step == event.BeforeSubmitPrompt && r.Response.Continue != nil:
		if *r.Response.Continue {
			o.Said = "continue"
		} else {
			o.Said = "block"
			a.blocked = true
		}
	default:
		o.Said = "none"
		if !isEmpty(r.Response) {
			o.Said = "answered"
		}
	}
	return a
}

// isEmpty reports whether a response carries nothing the merge uses.
func isEmpty(r *event.Response) bool {
	return r.Permission == "" && r.Continue == nil && r.UserMessage == "" && r.AgentMessage == "" &&
		len(r.UpdatedInput) == 0 && r.NewContent == nil && r.FollowupMessage == "" && len(r.Env) == 0 &&
		r.AdditionalContext == "" && len(r.UpdatedMCPToolOutput) == 0
}

// stderrMessage turns a blocking hook's stderr into a message: trimmed,
// valid UTF-8, and bounded so a flood cannot become a prompt.
func stderrMessage(b []byte) string {
	const max = 4096
	s := strings.TrimSpace(strings.ToValidUTF8(string(b), "\uFFFD"))
	if len(s) > max {
		s = strings.ToValidUTF8(s[:max], "") + "…"
	}
	return s
}

// merge folds the answers, in priority order, into one decision
// (docs/architecture.md, the merge). outcomes must already be in priority
// order; the result never depends on which hook finished first.
func merge(in mergeInput, outcomes []Outcome) *Decision {
	d := &Decision{Step: in.step, Hooks: outcomes, LoopCount: in.loopCount}
	answers := make([]answer, len(outcomes))
	for i := range outcomes {
		answers[i] = read(in.step, &outcomes[i])
	}
	switch {
	case in.step.Gating():
		mergeGate(d, in, answers)
	case in.step == event.BeforeSubmitPrompt:
		mergePrompt(d, answers)
	case in.step == event.PostToolUse:
		d.AdditionalContext = joinField(answers, func(r *event.Response) string { return r.AdditionalContext })
		if strings.HasPrefix(in.toolName, "MCP:") {
			for _, a := range answers {
				if a.resp != nil && len(a.resp.UpdatedMCPToolOutput) > 0 {
					d.UpdatedMCPToolOutput = a.resp.UpdatedMCPToolOutput
					break
				}
			}
		}
	case in.step == event.SessionStart:
		// Higher priority wins key by key: apply lowest priority first.
		for i := len(answers) - 1; i >= 0; i-- {
			if r := answers[i].resp; r != nil && len(r.Env) > 0 {
				if d.Env == nil {
					d.Env = make(map[string]string, len(r.Env))
				}
				maps.Copy(d.Env, r.Env)
			}
		}
		d.AdditionalContext = joinField(answers, func(r *event.Response) string { return r.AdditionalContext })
	case in.step == event.Stop || in.step == event.SubagentStop:
		if in.step == event.SubagentStop && in.status != "completed" {
			break
		}
		for i, a := range answers {
			if a.resp != nil && a.resp.FollowupMessage != "" && outcomes[i].Hook.LoopLimit.Allows(in.loopCount) {
				d.FollowupMessage = a.resp.FollowupMessage
				break
			}
		}
	case in.step == event.PreCompact:
		d.UserMessage = joinField(answers, func(r *event.Response) string { return r.UserMessage })
	}
	return d
}

// Stricter is the merge's rule between two gating answers: the more
// restrictive permission (deny over ask over allow over no opinion).
func Stricter(a, b event.Permission) event.Permission {
	if b.Rank() > a.Rank() {
		return b
	}
	return a
}

// Strictest folds the permissions of several decisions by the same rule,
// Stricter: between the steps of one action (a command's preToolUse and
// beforeShellExecution, an agent's event) as between the hooks of one
// step. A nil decision counts as no opinion.
func Strictest(ds ...*Decision) event.Permission {
	p := event.NoOpinion
	for _, d := range ds {
		if d != nil {
			p = Stricter(p, d.Permission)
		}
	}
	return p
}

// mergeGate: the most restrictive permission wins (Stricter); messages come from the
// hooks that gave it, highest priority first; rewrites come from the
// highest-priority hook that gave one and apply only when not denied.
func mergeGate(d *Decision, in mergeInput, answers []answer) {
	perm := func(a answer) event.Permission {
		if in.step == event.SubagentStart && a.perm == event.Ask {
			return event.Deny // Cursor: no ask for subagentStart (docs/semantics.md)
		}
		return a.perm
	}
	for _, a := range answers {
		d.Permission = Stricter(d.Permission, perm(a))
	}
	var users, agents []string
	for _, a := range answers {
		if p := perm(a); p != d.Permission || p == event.NoOpinion {
			continue
		}
		users = appendNonEmpty(users, a.user)
		agents = appendNonEmpty(agents, a.agent)
	}
	d.UserMessage = strings.Join(users, "\n")
	d.AgentMessage = strings.Join(agents, "\n")
	if d.Permission != event.Deny {
		for _, a := range answers {
			if a.resp != nil && len(a.resp.UpdatedInput) > 0 {
				d.UpdatedInput = a.resp.UpdatedInput
				break
			}
		}
		for _, a := range answers {
			if a.resp != nil && a.resp.NewContent != nil {
				d.NewContent = a.resp.NewContent
				break
			}
		}
	}
}

// mergePrompt: any block stops the submission; the blockers' messages are
// joined in priority order.
func mergePrompt(d *Decision, answers []answer) {
	var blockers, all []string
	for _, a := range answers {
		if a.blocked {
			blockers = appendNonEmpty(blockers, a.user)
			f := false
			d.Continue = &f
		} else if a.resp != nil && a.resp.Continue != nil && d.Continue == nil {
			t := true
			d.Continue = &t
		}
		all = appendNonEmpty(all, a.user)
	}
	if d.Continue != nil && !*d.Continue {
		d.UserMessage = strings.Join(blockers, "\n")
	} else {
		d.UserMessage = strings.Join(all, "\n")
	}
}

func joinField(answers []answer, f func(*event.Response) string) string {
	var parts []string
	for _, a := range answers {
		if a.resp != nil {
			parts = appendNonEmpty(parts, f(a.resp))
		}
	}
	return strings.Join(parts, "\n")
}

func appendNonEmpty(s []string, v string) []string {
	if v == "" {
		return s
	}
	return append(s, v)
}
