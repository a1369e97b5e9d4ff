package agent

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// NoWorkaround ends model-visible denials that agenthooks words itself,
// as the engine's own do: a model told only "no" tries another way.
const NoWorkaround = "Do not attempt to work around this restriction using alternative methods or commands."

// Verdict is the merged outcome of every step run for one agent event.
type Verdict struct {
	// Permission is the most restrictive answer of the gating steps:
	// deny > ask > allow > no opinion, the engine's own rule between
	// hooks applied between steps.
	Permission event.Permission
	// Reason is what the model is told when the action is denied.
	Reason string
	// UserMessage is what the user is told: the question of an ask, the
	// note of an allow, the client message of a deny.
	UserMessage string
	// UpdatedInput is preToolUse's rewrite of the tool input, in the
	// hooks' terms (see Request.AgentInput), when the result is not deny.
	UpdatedInput map[string]any
	// PromptBlocked and PromptMessage are beforeSubmitPrompt's answer.
	PromptBlocked bool
	PromptMessage string
	// Followup keeps the agent (stop) or a subagent (subagentStop) going.
	Followup string
	// Env and Context are sessionStart's; Context also postToolUse's.
	Env     map[string]string
	Context string
	// UpdatedToolOutput replaces an MCP tool's result (postToolUse).
	UpdatedToolOutput json.RawMessage
	// Notice is preCompact's message for the user.
	Notice string
}

// Merge folds the engine's decisions for one agent event into a verdict.
// The decisions are in the order of the request's calls (and any
// rechecks after them).
func Merge(ds []*engine.Decision) *Verdict {
	v := &Verdict{}
	var denied, asked, allowed []*engine.Decision
	var contexts []string
	for _, d := range ds {
		if d == nil {
			continue
		}
		if d.Step.Gating() {
			switch d.Permission {
			case event.Deny:
				denied = append(denied, d)
			case event.Ask:
				asked = append(asked, d)
			case event.Allow:
				allowed = append(allowed, d)
			}
			v.Permission = engine.Stricter(v.Permission, d.Permission)
		}
		switch d.Step {
		case event.PreToolUse:
			if len(d.UpdatedInput) > 0 {
				if m, err := jsonscan.DecodeObject(d.UpdatedInput); err == nil {
					v.UpdatedInput = m
				}
			}
		case event.BeforeReadFile:
			if d.NewContent != nil && d.Permission != event.Deny {
				// A redaction no agent here can apply: the model would read
				// the original. Refuse the read rather than leak it.
				v.Permission = event.Deny
				denied = append(denied, redacted(d))
			}
		case event.BeforeSubmitPrompt:
			if d.Blocked() {
				v.PromptBlocked = true
				v.PromptMessage = JoinNew(v.PromptMessage, OrElse(d.ClientMessage, d.UserMessage))
			}
		case event.Stop, event.SubagentStop:
			if d.FollowupMessage != "" {
				v.Followup = d.FollowupMessage
			}
		case event.SessionStart:
			v.Env = d.Env
		case event.PostToolUse:
			if len(d.UpdatedMCPToolOutput) > 0 {
				v.UpdatedToolOutput = d.UpdatedMCPToolOutput
			}
		case event.PreCompact:
			v.Notice = JoinNew(v.Notice, d.UserMessage)
		}
		if d.AdditionalContext != "" {
			contexts = append(contexts, d.AdditionalContext)
		}
	}
	v.Context = strings.Join(contexts, "\n")
	switch v.Permission {
	case event.Deny:
		v.UpdatedInput = nil
		for _, d := range denied {
			if v.Reason == "" {
				v.Reason = OrElse(d.ModelMessage, OrElse(d.AgentMessage, d.UserMessage))
			} else if m := OrElse(d.AgentMessage, d.UserMessage); m != "" && !strings.Contains(v.Reason, m) {
				v.Reason += "\n" + m
			}
			v.UserMessage = JoinNew(v.UserMessage, OrElse(d.ClientMessage, d.UserMessage))
		}
		if v.Reason == "" {
			v.Reason = "A hook denied this action. " + NoWorkaround
		}
	case event.Ask:
		for _, d := range asked {
			v.UserMessage = JoinNew(v.UserMessage, OrElse(d.UserMessage, d.AgentMessage))
		}
	case event.Allow:
		for _, d := range allowed {
			v.UserMessage = JoinNew(v.UserMessage, d.UserMessage)
		}
	}
	return v
}

// redacted is a beforeReadFile decision turned into the denial of a read
// whose content a hook wanted redacted.
func redacted(d *engine.Decision) *engine.Decision {
	msg := "File reading was blocked: a hook redacts this file's content, and the redacted text cannot be handed to this agent. " + NoWorkaround
	return &engine.Decision{Step: d.Step, Permission: event.Deny, ModelMessage: msg, ClientMessage: msg}
}

// AskAsDeny is the reason an agent without "ask" gets when a hook asks:
// the action is refused, and the model is told to get the user's word.
func AskAsDeny(who string, v *Verdict) string {
	msg := "A hook asks for the user's confirmation before this action, and " + who + " cannot ask for it, so the action was not run."
	if v.UserMessage != "" {
		msg += " The hook says: " + Sentence(v.UserMessage)
	}
	return msg + " Ask the user to confirm before trying again."
}

// Recheck returns the steps a rewrite must pass too: when a preToolUse
// hook rewrote the tool input, every preToolUse hook judges the new input
// (a hook of one source must not carry an action past another source's
// deny by rewriting it), and when the command or the path changed, the
// shell or read hooks see the new one, so they never let through what
// they were not shown (as `exec` does). The calls run after the
// request's, and all decisions merge; Rewritten says whether the second
// round rewrote the input yet again.
func (r *Request) Recheck(v *Verdict) []Call {
	t := r.ToolUse
	if t == nil || v.UpdatedInput == nil || v.Permission == event.Deny || r.Kind != Tool {
		return nil
	}
	c := r.Shared
	input := rewritten(t, v.UpdatedInput)
	calls := []Call{c.preToolUseCall(t, input)}
	switch t.Kind {
	case KindShell:
		if cmd, ok := v.UpdatedInput["command"].(string); ok && cmd != t.Command {
			call, _ := c.GateCall(t, cmd, "")
			calls = append(calls, call)
		}
	case KindRead:
		// Every path the rewrite names, under any key and spelling
		// (file_path, path, filePath): the tool reads one of them.
		seen := map[string]bool{t.FilePath: true}
		for _, k := range slices.Sorted(maps.Keys(v.UpdatedInput)) {
			p, ok := v.UpdatedInput[k].(string)
			if !ok || !isPathKey(k) || seen[c.Abs(p)] {
				continue
			}
			seen[c.Abs(p)] = true
			if call, ok := c.GateCall(t, "", c.Abs(p)); ok {
				calls = append(calls, call)
			}
		}
	case KindMCP:
		// The new arguments go past the MCP gate.
		again := *t
		again.AgentInput = r.AgentInput(v.UpdatedInput)
		if call, ok := c.GateCall(&again, "", ""); ok {
			calls = append(calls, call)
		}
	case KindTask:
		// A rewritten task goes past subagentStart again.
		calls = append(calls, c.subagentStartCall(t,
			OrElse(Str(input, "subagent_type", "agent_type", "agent"), t.SubagentType),
			OrElse(Str(input, "prompt", "description", "task"), t.Task)))
	}
	return calls
}

// rewritten is t's input, in the hooks' terms, with a rewrite laid over.
func rewritten(t *ToolCall, updated map[string]any) map[string]any {
	input := Clone(t.Input)
	maps.Copy(input, updated)
	return input
}

// RewriteProblem reports a rewrite that leaves a tool call no hook can
// judge (unjudgeable): two files under its path keys, a command that is
// not a string.
func (r *Request) RewriteProblem(v *Verdict) error {
	if r.ToolUse == nil || v.UpdatedInput == nil {
		return nil
	}
	again := *r.ToolUse
	again.AgentInput = r.AgentInput(v.UpdatedInput)
	return unjudgeable(&again)
}

// Rewritten reports whether the second round of preToolUse (Recheck)
// rewrote the input to something other than what it judged: that input
// was judged by no one, so it must not run.
func (r *Request) Rewritten(first *Verdict, again []*engine.Decision) bool {
	second := Merge(again)
	if second.UpdatedInput == nil || r.ToolUse == nil {
		return false
	}
	judged := rewritten(r.ToolUse, first.UpdatedInput)
	for k, val := range second.UpdatedInput {
		if !reflect.DeepEqual(judged[k], val) {
			return true
		}
	}
	return false
}

// AgentInput is the rewrite in the agent's terms: the agent's tool input
// with the keys the hook changed laid over it (keys agenthooks added are
// dropped, the agent's spelling of keys restored). Agents such as Claude
// replace the whole input with what they get back, and Cursor's
// updated_input often holds only the changed keys, so the rest is kept.
func (r *Request) AgentInput(updated map[string]any) map[string]any {
	if updated == nil || r.ToolUse == nil {
		return nil
	}
	t := r.ToolUse
	out := Clone(t.AgentInput)
	for k, val := range updated {
		if t.Added[k] {
			continue
		}
		if t.Back != nil {
			k = t.Back(k)
		}
		out[k] = val
	}
	return out
}

// Rewrite is the rewrite in the agent's terms (AgentInput) for a call
// that goes ahead; nil when no hook rewrote it or it is denied.
func (r *Request) Rewrite(v *Verdict) map[string]any {
	if v.Permission == event.Deny {
		return nil
	}
	return r.AgentInput(v.UpdatedInput)
}

// Decide writes a gate's decision in the words Claude Code, Gemini CLI and
// Copilot share, under their keys: deny with the reason the model is
// told, ask with the question, and allow (with its note) only when the
// caller passes allows on as approvals.
func Decide(out map[string]any, decisionKey, reasonKey string, v *Verdict, o Options) {
	switch v.Permission {
	case event.Deny:
		out[decisionKey] = "deny"
		out[reasonKey] = v.Reason
	case event.Ask:
		out[decisionKey] = "ask"
		out[reasonKey] = OrElse(v.UserMessage, "A hook asks for confirmation.")
	case event.Allow:
		if o.Approve {
			out[decisionKey] = "allow"
			if v.UserMessage != "" {
				out[reasonKey] = v.UserMessage
			}
		}
	}
}

// OrElse returns s, or def when s is empty.
func OrElse(s, def string) string {
	if s != "" {
		return s
	}
	return def
}

// JoinNew appends a line to a message unless it is empty or already there.
func JoinNew(msg, line string) string {
	if line == "" || slices.Contains(strings.Split(msg, "\n"), line) {
		return msg
	}
	if msg == "" {
		return line
	}
	return msg + "\n" + line
}

// Sentence ends a message with a full stop unless it has its own.
func Sentence(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}
