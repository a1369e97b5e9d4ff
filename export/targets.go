package export

import (
	"fmt"
	"maps"
	"time"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/sandbox"
)

// The tool names Cursor's preToolUse, postToolUse and postToolUseFailure
// matchers test (Cursor's hooks documentation, and the names agenthooks'
// dialects give the tools agents add). MCP tools are "MCP:<tool>".
const (
	ToolShell     = "Shell"
	ToolRead      = "Read"
	ToolWrite     = "Write"
	ToolGrep      = "Grep"
	ToolGlob      = "Glob"
	ToolTask      = "Task"
	ToolDelete    = "Delete"
	ToolWebFetch  = "WebFetch"
	ToolWebSearch = "WebSearch"
	ToolLS        = "LS"
	// toolReadGate is the tool beforeReadFile gates, which for Gemini CLI
	// is read_file alone (read_many_files reaches preToolUse only).
	ToolReadGate = "Read (beforeReadFile)"
	// toolMCP stands for every MCP tool.
	ToolMCP = "MCP"
)

// cursorTools are the Cursor tool names a matcher may name, for
// expanding a regular expression into names.
var cursorTools = []string{ToolShell, ToolRead, ToolWrite, ToolGrep, ToolGlob, ToolTask, ToolDelete,
	ToolWebFetch, ToolWebSearch, ToolLS}

// MatcherFrom says where a step's matcher comes from in the target.
type MatcherFrom int

const (
	// noMatcher: the target event has none (prompts, stops, sessions).
	NoMatcher MatcherFrom = iota
	// fromHook: the hook's own matcher, over Cursor's tool names,
	// translated into the target's (preToolUse and the like).
	FromHook
	// fromTool: the names of the step's one tool (beforeShellExecution:
	// the shell tool).
	FromTool
)

// StepMap is where a Cursor step goes in a target.
type StepMap struct {
	Event   string
	Matcher MatcherFrom
	Tool    string // for fromTool
}

// MatcherStyle is how a target reads its matchers.
type MatcherStyle int

const (
	// nameList: a string of names (and |) is a list of exact names,
	// anything else an unanchored regular expression (Claude Code, Codex).
	NameList MatcherStyle = iota + 1
	// regex: always an unanchored regular expression (Gemini CLI), so
	// exported matchers are anchored.
	Regex
	// anchored: a regular expression the agent anchors itself as
	// ^(?:…)$ (Copilot).
	Anchored
)

// Target is one agent's hook format.
type Target struct {
	Name, Title string
	// projectPath and userPath are where the settings belong, relative
	// to the project root and to the home directory.
	ProjectPath, UserPath string
	Steps                 map[event.Step]StepMap
	EventOrder            []string
	// tools maps Cursor's tool names to the target's; a name missing
	// here has no counterpart. native are the target's own tool names,
	// kept as written when a matcher names them.
	Tools  map[string][]string
	Native map[string]bool
	// mcpAll is the matcher part for every MCP tool, mcpOne (a format
	// with %s for the regexp-quoted tool name) for one; "" when the
	// target's MCP tool names are unknown.
	MCPAll, MCPOne string
	Style          MatcherStyle
	// nameRune reports whether r may appear in the target's exact name
	// lists (besides |).
	NameRune func(r rune) bool
	// prompts are the events where the target runs prompt hooks.
	Prompts map[string]bool
	// flat: handlers sit directly under the event, each with its own
	// matcher (Copilot); otherwise in Claude's matcher groups.
	Flat bool
	// version: the document starts with "version": 1 (Copilot).
	Version bool
	// projectDir is the shell expression of the project root in the
	// target's hooks, "" when it has none.
	ProjectDir string
	// millis: timeouts in milliseconds (Gemini CLI), else whole seconds.
	Millis bool
	// managedFix says how to deploy managed hooks for the target.
	ManagedFix string
	// missingSteps says why a step has no counterpart and what to do,
	// where the generic text would not say enough.
	MissingSteps map[event.Step][2]string
	// shapes say, per step, how the target's payload differs from
	// Cursor's and what answer it reads (warnings.go).
	Shapes map[event.Step][2]string

	// What the target does otherwise than Cursor, in words for the
	// warnings (warnings.go); "" or nil where it does as Cursor does or
	// the generic text says enough.

	// ShellEntries: each handler is a Copilot-style entry, with a bash
	// and a powershell command, a cwd and timeoutSec.
	ShellEntries bool
	// NamedHooks: every hook has a name (Gemini CLI).
	NamedHooks bool
	// EventBudgets caps the time the target gives an event's hooks, by
	// its event name.
	EventBudgets map[string]Budget
	// CommandPlace is where the target's shell payload holds the command,
	// for advice; "" means tool_input.command.
	CommandPlace string
	// LocationWarning, with the hooks' folder for %s, says that the
	// target's commands name the project by its absolute path.
	LocationWarning string
	// ShellReadsFix is the advice when a matcher names read and search
	// tools the target does not have because it reads through its shell.
	ShellReadsFix string
	// LastMessageField is the field of the target's stop payload that
	// holds the turn's last message, "" when it has none.
	LastMessageField string
	// PromptMissing says why a prompt hook cannot run at the target's
	// event; nil means the target's prompt hooks are not a model's
	// verdict.
	PromptMissing func(event string) string
	// Models are words of the model names the target's prompt hooks know;
	// ModelFix what to write instead of another.
	Models   []string
	ModelFix string
	// Ask is the warning, and its fix, where the target cannot ask the
	// user at a gate.
	Ask [2]string
	// FailClosedFix says how a script refuses on its own failures.
	FailClosedFix string
	// LoopCap is the target's own limit of follow-ups in a row, 0 for
	// none; LoopFix the advice when a loop limit is lost.
	LoopCap int
	LoopFix string
	// ExitCodes warns, by the target's event name, where it reads exit
	// codes otherwise than Cursor.
	ExitCodes map[string][2]string
	// EventWarnings warns where the target's event does less or more than
	// the step.
	EventWarnings map[event.Step][2]string
	// Sandbox renders an effective sandbox into the agent's own sandbox
	// settings (sandbox.go); nil when it has none agenthooks can write.
	Sandbox func(p sandbox.Policy) SandboxResult
}

// Budget is the time a target gives an event's hooks, and the warning
// (with the time asked for, %s) and fix when a hook asks for more.
type Budget struct {
	Limit        time.Duration
	Message, Fix string
}

// install is the advice for keeping a hook as Cursor runs it.
func (t *Target) install() string {
	return "`agenthooks install --agent " + t.Name + "`"
}

func IsWordRune(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
}

// ToolSteps are the tool events shared by the Claude-shaped targets.
func ToolSteps(pre, post string) map[event.Step]StepMap {
	return map[event.Step]StepMap{
		event.PreToolUse:           {pre, FromHook, ""},
		event.PostToolUse:          {post, FromHook, ""},
		event.BeforeShellExecution: {pre, FromTool, ToolShell},
		event.AfterShellExecution:  {post, FromTool, ToolShell},
		event.BeforeMCPExecution:   {pre, FromTool, ToolMCP},
		event.AfterMCPExecution:    {post, FromTool, ToolMCP},
		event.BeforeReadFile:       {pre, FromTool, ToolReadGate},
		event.AfterFileEdit:        {post, FromTool, ToolWrite},
	}
}

// Lifecycle names the target's events for the steps about no tool; ""
// where the target has none.
type Lifecycle struct {
	Prompt, Stop, SubagentStop, SessionStart, SessionEnd, Compact string
}

// Steps maps the lifecycle steps to their events, which take no matcher.
func (l Lifecycle) Steps() map[event.Step]StepMap {
	m := map[event.Step]StepMap{}
	for step, ev := range map[event.Step]string{
		event.BeforeSubmitPrompt: l.Prompt,
		event.Stop:               l.Stop,
		event.SubagentStop:       l.SubagentStop,
		event.SessionStart:       l.SessionStart,
		event.SessionEnd:         l.SessionEnd,
		event.PreCompact:         l.Compact,
	} {
		if ev != "" {
			m[step] = StepMap{ev, NoMatcher, ""}
		}
	}
	return m
}

func Without(m map[event.Step]StepMap, steps ...event.Step) map[event.Step]StepMap {
	for _, s := range steps {
		delete(m, s)
	}
	return m
}

func With(m map[event.Step]StepMap, more ...map[event.Step]StepMap) map[event.Step]StepMap {
	for _, mm := range more {
		maps.Copy(m, mm)
	}
	return m
}

// missing says why a step has no counterpart in t, and what to do.
func (t *Target) missing(step event.Step) (msg, fix string) {
	if s, ok := t.MissingSteps[step]; ok {
		return s[0], s[1]
	}
	switch {
	case step.Tab():
		return "Tab completions are Cursor's own: no agent runs hooks for them", "keep it in Cursor"
	case step == event.AfterAgentThought:
		return t.Title + " shows hooks no thinking blocks", "keep it in Cursor"
	case step == event.AfterAgentResponse:
		fix := "keep it in Cursor"
		if t.LastMessageField != "" {
			fix = "if the turn's last message is enough, make it a stop hook: " + t.Title + " sends it as " + t.LastMessageField
		}
		return t.Title + " has no event after each response", fix
	}
	return fmt.Sprintf("%s has no event for %s", t.Title, step), "keep it in Cursor"
}

// promptMissing says why a prompt hook cannot run at ev.
func (t *Target) promptMissing(ev string) string {
	if t.PromptMissing != nil {
		return t.PromptMissing(ev)
	}
	return t.Title + "'s prompt hooks are not a model's verdict (its prompt type only adds a prompt at sessionStart)"
}

func Set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
