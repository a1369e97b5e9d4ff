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
	if h.Type == config.TypePrompt && h.Model != "" && !claudeModel(h.Model) {
		x.warn(h, KindPrompt, fmt.Sprintf("model %s is passed on as written, and Claude Code knows only its own models", quote(h.Model)),
			"name a Claude model (such as haiku), or remove model to use Claude Code's default")
	}
	if h.FailClosed {
		x.warn(h, KindFailClosed, t.Title+" has no failClosed: when the hook crashes, times out or answers nonsense, the action goes ahead",
			t.failClosedFix()+", or keep failClosed by running it through "+t.install())
	}
	if h.Step == event.Stop || h.Step == event.SubagentStop {
		x.loopLimit(h)
	}
	if h.Step == event.BeforeShellExecution || h.Step == event.BeforeMCPExecution {
		switch t.Name {
		case "codex":
			x.warn(h, KindAsk, "Codex cannot ask the user: it rejects an ask answer as invalid and the action goes ahead",
				"answer deny, with a reason telling the model to get the user's confirmation")
		case "copilot":
			x.warn(h, KindAsk, "the Copilot cloud agent cannot ask the user and treats ask as deny (the CLI asks)",
				"answer deny or allow where the hook must work in the cloud agent")
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
	if t.Name == "claude" {
		if !h.LoopLimit.Unlimited && h.LoopLimit.N == 8 {
			return
		}
		x.warn(h, KindLoopLimit, fmt.Sprintf("Claude Code has no per-hook loop limit: %s is lost, and Claude Code ends the loop after 8 follow-ups in a row", limit),
			"count follow-ups in the script if the limit matters; stop_hook_active says one is under way")
		return
	}
	fix := "make the script stop asking for follow-ups; stop_hook_active says one is under way"
	if t.Name == "copilot" {
		fix = "count follow-ups in the script itself"
	}
	x.warn(h, KindLoopLimit, fmt.Sprintf("%s has no loop limit: %s is lost, and a hook that keeps asking for a follow-up keeps the agent going", t.Title, limit), fix)
}

// exitCodes warns where the target reads exit codes otherwise than
// Cursor (0 uses the answer, 2 denies, others fail open).
func (x *exporter) exitCodes(h *config.Hook, m StepMap) {
	t := x.t
	switch {
	case t.Name == "copilot" && m.Event == "preToolUse":
		x.warn(h, KindExitCode, "GitHub Copilot takes exit code 2 as a warning, not a deny: a script that blocks with exit 2 no longer blocks",
			`print {"permissionDecision":"deny","permissionDecisionReason":"…"} and exit 0 instead`)
	case t.Name == "codex" && m.Event == "PreToolUse":
		x.warn(h, KindExitCode, "Codex blocks on exit code 2 only with a reason on stderr; with stderr empty the hook counts as failed and the action goes ahead",
			"write the reason to stderr before exiting 2")
	case t.Name == "gemini" && (m.Event == "BeforeTool" || m.Event == "BeforeAgent" || m.Event == "AfterAgent"):
		what := "a script that fails that way blocks"
		if m.Event == "AfterAgent" {
			what = "a script that fails that way makes Gemini CLI go on with the error output as its next prompt"
		}
		x.warn(h, KindExitCode, "Gemini CLI takes any exit code but 0 and 1, without JSON on stdout, as a deny (Cursor denies only on 2): "+what,
			"exit 0 or 1 unless the hook means to block, or print JSON")
	case t.Name == "claude" && m.Event == "PreCompact":
		x.warn(h, KindExitCode, "Claude Code stops the compaction when the script exits 2 (Cursor's preCompact cannot block)",
			"exit 0 or 1 unless the hook means to stop compaction")
	}
}

// eventWarnings warns where the target's event does less or more than the step.
func (x *exporter) eventWarnings(h *config.Hook, m StepMap) {
	t := x.t
	switch {
	case t.Name == "gemini" && h.Step == event.PostToolUseFailure:
		x.warn(h, KindEvent, "Gemini CLI has no event for failed tool calls: the hook now runs after every call of its tools, failed or not",
			"return at once unless tool_response.error is set")
	case t.Name == "copilot" && h.Step == event.BeforeSubmitPrompt:
		x.warn(h, KindEvent, "GitHub Copilot does not read answers to userPromptSubmitted: the hook can no longer block a prompt",
			"keep prompt checks in Cursor, or gate the tools the prompt leads to in preToolUse")
	case h.Step == event.SessionStart && (t.Name == "gemini" || t.Name == "copilot"):
		lost := "Gemini CLI has no session environment for hooks: the env the hook returns is lost"
		if t.Name == "copilot" {
			lost = "GitHub Copilot does not read answers to sessionStart: the env and additional_context the hook returns are lost"
		}
		x.warn(h, KindEvent, lost,
			"have the hooks that need the values compute them themselves")
	}
}

// failClosedFix says how a script can refuse on its own failures.
func (t *Target) failClosedFix() string {
	switch t.Name {
	case "copilot":
		return `make the script print a deny answer when it fails (GitHub Copilot ignores exit code 2)`
	case "codex":
		return "make the script exit 2 with a reason on stderr when it fails"
	}
	return "make the script exit 2 when it fails, for example from a trap"
}

// claudeModel reports whether a prompt hook's model is one Claude Code
// knows by name.
func claudeModel(m string) bool {
	m = strings.ToLower(m)
	for _, s := range []string{"claude", "haiku", "sonnet", "opus"} {
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
