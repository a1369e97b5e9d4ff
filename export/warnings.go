package export

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
)

// warnings says what an exported hook loses or does differently in the
// target, beyond its matcher and timeout.
func (x *exporter) warnings(h *config.Hook, m StepMap) {
	t := x.t
	x.payload(h, m)
	if h.Type == config.TypePrompt && h.Model != "" && !t.knowsModel(h.Model) {
		x.warn(h, KindPrompt, fmt.Sprintf("model %s is passed on as written, and %s knows only its own models", quote(h.Model), t.Title),
			t.ModelFix)
	}
	if h.FailClosed {
		x.warn(h, KindFailClosed, t.Title+" has no failClosed: when the hook crashes, times out or answers nonsense, the action goes ahead",
			t.failClosedFix()+", or keep failClosed by running it through "+t.install())
	}
	if h.Step == event.Stop || h.Step == event.SubagentStop {
		x.loopLimit(h)
	}
	if h.Step == event.BeforeShellExecution || h.Step == event.BeforeMCPExecution {
		if t.Ask[0] != "" {
			x.warn(h, KindAsk, t.Ask[0], t.Ask[1])
		}
	}
	x.exitCodes(h, m)
	if h.Step == event.BeforeReadFile {
		x.warn(h, KindContent, t.Title+" sends no file content: a script that reads content gets nothing",
			"read the file at the path the payload names")
	}
	x.eventWarnings(h, m)
}

// payload warns that the script gets the target's payload and must answer
// in the target's format: the one thing export cannot change.
func (x *exporter) payload(h *config.Hook, m StepMap) {
	t := x.t
	if h.Type == config.TypePrompt {
		x.warn(h, KindPayload, fmt.Sprintf("the model is shown %s's %s payload as $ARGUMENTS, not Cursor's", t.Title, m.Event),
			"check the prompt does not rely on Cursor's field names")
		return
	}
	in, out := t.shape(h.Step)
	msg := fmt.Sprintf("the script gets %s's %s payload, not Cursor's (%s)", t.Title, m.Event, in)
	if out != "" {
		msg += fmt.Sprintf(", and %s reads only its own answer (%s)", t.Title, out)
	}
	x.warn(h, KindPayload, msg, "adapt the script to "+t.Title+"'s format, or run it unchanged through "+t.install())
}

// loopLimit warns that the stop loop's limit changes.
func (x *exporter) loopLimit(h *config.Hook) {
	t := x.t
	limit := "no loop_limit"
	switch {
	case h.LoopLimit.Unlimited:
		limit = "loop_limit null (no limit)"
	case h.LoopLimit.N == config.DefaultLoopLimit:
		limit = "loop_limit " + strconv.Itoa(h.LoopLimit.N) + " (Cursor's default)"
	default:
		limit = "loop_limit " + strconv.Itoa(h.LoopLimit.N)
	}
	if t.LoopCap > 0 {
		if !h.LoopLimit.Unlimited && h.LoopLimit.N == t.LoopCap {
			return
		}
		x.warn(h, KindLoopLimit, fmt.Sprintf("%s has no per-hook loop limit: %s is lost, and %s ends the loop after %d follow-ups in a row", t.Title, limit, t.Title, t.LoopCap),
			"count follow-ups in the script if the limit matters; stop_hook_active says one is under way")
		return
	}
	fix := "make the script stop asking for follow-ups; stop_hook_active says one is under way"
	if t.LoopFix != "" {
		fix = t.LoopFix
	}
	x.warn(h, KindLoopLimit, fmt.Sprintf("%s has no loop limit: %s is lost, and a hook that keeps asking for a follow-up keeps the agent going", t.Title, limit), fix)
}

// exitCodes warns where the target reads exit codes otherwise than
// Cursor (0 uses the answer, 2 denies, others fail open).
func (x *exporter) exitCodes(h *config.Hook, m StepMap) {
	t := x.t
	if e, ok := t.ExitCodes[m.Event]; ok {
		x.warn(h, KindExitCode, e[0], e[1])
	}
}

// eventWarnings warns where the target's event does less or more than the step.
func (x *exporter) eventWarnings(h *config.Hook, m StepMap) {
	t := x.t
	if e, ok := t.EventWarnings[h.Step]; ok {
		x.warn(h, KindEvent, e[0], e[1])
	}
}

// failClosedFix says how a script can refuse on its own failures.
func (t *Target) failClosedFix() string {
	if t.FailClosedFix != "" {
		return t.FailClosedFix
	}
	return "make the script exit 2 when it fails, for example from a trap"
}

// knowsModel reports whether a prompt hook's model is one the target
// knows by name (Models).
func (t *Target) knowsModel(m string) bool {
	m = strings.ToLower(m)
	for _, s := range t.Models {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// shape says how the target's payload for step differs from Cursor's, and
// what answer it reads ("" when the step's answer says nothing).
func (t *Target) shape(step event.Step) (in, out string) {
	s := t.Shapes[step]
	return s[0], s[1]
}
