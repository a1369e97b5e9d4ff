// Package event is the catalogue of hook steps: their names, their typed
// inputs and outputs, the input fields common to every step, and the
// validators that decide whether a hook's answer is well formed.
//
// Every other package speaks of steps through this one, so the spelling of
// a step name lives in exactly one place.
package event

import "github.com/agenthooks/agenthooks/internal/suggest"

// Step names a point in the agent or Tab loop at which hooks run. The
// values are Cursor's hooks.json keys, so a Step can be used as one.
type Step string

// The agent steps.
const (
	SessionStart         Step = "sessionStart"
	SessionEnd           Step = "sessionEnd"
	PreToolUse           Step = "preToolUse"
	PostToolUse          Step = "postToolUse"
	PostToolUseFailure   Step = "postToolUseFailure"
	SubagentStart        Step = "subagentStart"
	SubagentStop         Step = "subagentStop"
	BeforeShellExecution Step = "beforeShellExecution"
	AfterShellExecution  Step = "afterShellExecution"
	BeforeMCPExecution   Step = "beforeMCPExecution"
	AfterMCPExecution    Step = "afterMCPExecution"
	BeforeReadFile       Step = "beforeReadFile"
	AfterFileEdit        Step = "afterFileEdit"
	BeforeSubmitPrompt   Step = "beforeSubmitPrompt"
	PreCompact           Step = "preCompact"
	Stop                 Step = "stop"
	AfterAgentResponse   Step = "afterAgentResponse"
	AfterAgentThought    Step = "afterAgentThought"
)

// The Tab steps.
const (
	BeforeTabFileRead Step = "beforeTabFileRead"
	AfterTabFileEdit  Step = "afterTabFileEdit"
)

// Steps lists every step in a fixed order; Index gives a step's position in it.
var Steps = [...]Step{
	SessionStart, SessionEnd,
	PreToolUse, PostToolUse, PostToolUseFailure,
	SubagentStart, SubagentStop,
	BeforeShellExecution, AfterShellExecution,
	BeforeMCPExecution, AfterMCPExecution,
	BeforeReadFile, AfterFileEdit,
	BeforeSubmitPrompt, PreCompact, Stop,
	AfterAgentResponse, AfterAgentThought,
	BeforeTabFileRead, AfterTabFileEdit,
}

// NumSteps is the number of known steps.
const NumSteps = len(Steps)

// Index returns the step's position in Steps, or -1 for an unknown name.
// It is a switch rather than a map so that the hot path (HasHooks) neither
// hashes nor allocates.
func Index(s Step) int {
	switch s {
	case SessionStart:
		return 0
	case SessionEnd:
		return 1
	case PreToolUse:
		return 2
	case PostToolUse:
		return 3
	case PostToolUseFailure:
		return 4
	case SubagentStart:
		return 5
	case SubagentStop:
		return 6
	case BeforeShellExecution:
		return 7
	case AfterShellExecution:
		return 8
	case BeforeMCPExecution:
		return 9
	case AfterMCPExecution:
		return 10
	case BeforeReadFile:
		return 11
	case AfterFileEdit:
		return 12
	case BeforeSubmitPrompt:
		return 13
	case PreCompact:
		return 14
	case Stop:
		return 15
	case AfterAgentResponse:
		return 16
	case AfterAgentThought:
		return 17
	case BeforeTabFileRead:
		return 18
	case AfterTabFileEdit:
		return 19
	}
	return -1
}

// Known reports whether s is one of the steps in Steps.
func (s Step) Known() bool { return Index(s) >= 0 }

// Gating reports whether the step's answer is a permission that can stop
// the action (deny > ask > allow).
func (s Step) Gating() bool {
	switch s {
	case BeforeShellExecution, BeforeMCPExecution, BeforeReadFile, BeforeTabFileRead, PreToolUse, SubagentStart:
		return true
	}
	return false
}

// Sequential reports whether the step's hooks must run one after another
// in priority order rather than in parallel: edit hooks often rewrite the
// same file.
func (s Step) Sequential() bool {
	return s == AfterFileEdit || s == AfterTabFileEdit
}

// Tab reports whether the step belongs to Tab rather than the agent.
func (s Step) Tab() bool { return s == BeforeTabFileRead || s == AfterTabFileEdit }

// SuggestStep returns the known step name nearest to name, for "did you
// mean …?" messages wherever a step is written by hand (hooks files,
// policies, a team server's hooks, the command line).
func SuggestStep(name string) (string, bool) {
	names := make([]string, len(Steps))
	for i, s := range Steps {
		names[i] = string(s)
	}
	return suggest.Closest(name, names)
}
