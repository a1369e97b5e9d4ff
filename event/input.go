package event

// Input is the payload a hook receives on stdin for one step: the step's
// own fields plus the embedded Common fields. Every XxxInput type in this
// package satisfies it, by value and by pointer.
//
// Numbers that count things are ints; durations and percentages are
// float64, because the documents give them only as "number" and a host
// measuring time in JavaScript may well send a fraction, which an int
// field would reject.
type Input interface {
	// Step names the step the payload belongs to.
	Step() Step
}

// NewInput returns a pointer to the zero input struct for step, ready to
// be decoded into, or nil for a step this package does not know.
func NewInput(step Step) Input {
	switch step {
	case SessionStart:
		return &SessionStartInput{}
	case SessionEnd:
		return &SessionEndInput{}
	case PreToolUse:
		return &PreToolUseInput{}
	case PostToolUse:
		return &PostToolUseInput{}
	case PostToolUseFailure:
		return &PostToolUseFailureInput{}
	case SubagentStart:
		return &SubagentStartInput{}
	case SubagentStop:
		return &SubagentStopInput{}
	case BeforeShellExecution:
		return &BeforeShellExecutionInput{}
	case AfterShellExecution:
		return &AfterShellExecutionInput{}
	case BeforeMCPExecution:
		return &BeforeMCPExecutionInput{}
	case AfterMCPExecution:
		return &AfterMCPExecutionInput{}
	case BeforeReadFile:
		return &BeforeReadFileInput{}
	case AfterFileEdit:
		return &AfterFileEditInput{}
	case BeforeSubmitPrompt:
		return &BeforeSubmitPromptInput{}
	case PreCompact:
		return &PreCompactInput{}
	case Stop:
		return &StopInput{}
	case AfterAgentResponse:
		return &AfterAgentResponseInput{}
	case AfterAgentThought:
		return &AfterAgentThoughtInput{}
	case BeforeTabFileRead:
		return &BeforeTabFileReadInput{}
	case AfterTabFileEdit:
		return &AfterTabFileEditInput{}
	}
	return nil
}
