package export

import (
	"fmt"
	"maps"

	"github.com/agenthooks/agenthooks/event"
)

// The tool names Cursor's preToolUse, postToolUse and postToolUseFailure
// matchers test (Cursor's hooks documentation, and the names agenthooks'
// dialects give the tools agents add). MCP tools are "MCP:<tool>".
const (
	toolShell     = "Shell"
	toolRead      = "Read"
	toolWrite     = "Write"
	toolGrep      = "Grep"
	toolGlob      = "Glob"
	toolTask      = "Task"
	toolDelete    = "Delete"
	toolWebFetch  = "WebFetch"
	toolWebSearch = "WebSearch"
	toolLS        = "LS"
	// toolReadGate is the tool beforeReadFile gates, which for Gemini CLI
	// is read_file alone (read_many_files reaches preToolUse only).
	toolReadGate = "Read (beforeReadFile)"
	// toolMCP stands for every MCP tool.
	toolMCP = "MCP"
)

// cursorTools are the Cursor tool names a matcher may name, for
// expanding a regular expression into names.
var cursorTools = []string{toolShell, toolRead, toolWrite, toolGrep, toolGlob, toolTask, toolDelete,
	toolWebFetch, toolWebSearch, toolLS}

// matcherFrom says where a step's matcher comes from in the target.
type matcherFrom int

const (
	// noMatcher: the target event has none (prompts, stops, sessions).
	noMatcher matcherFrom = iota
	// fromHook: the hook's own matcher, over Cursor's tool names,
	// translated into the target's (preToolUse and the like).
	fromHook
	// fromTool: the names of the step's one tool (beforeShellExecution:
	// the shell tool).
	fromTool
)

// stepMap is where a Cursor step goes in a target.
type stepMap struct {
	event   string
	matcher matcherFrom
	tool    string // for fromTool
}

// matcherStyle is how a target reads its matchers.
type matcherStyle int

const (
	// nameList: a string of names (and |) is a list of exact names,
	// anything else an unanchored regular expression (Claude Code, Codex).
	nameList matcherStyle = iota + 1
	// regex: always an unanchored regular expression (Gemini CLI), so
	// exported matchers are anchored.
	regex
	// anchored: a regular expression the agent anchors itself as
	// ^(?:…)$ (Copilot).
	anchored
)

// target is one agent's hook format.
type target struct {
	name, title string
	// projectPath and userPath are where the settings belong, relative
	// to the project root and to the home directory.
	projectPath, userPath string
	steps                 map[event.Step]stepMap
	eventOrder            []string
	// tools maps Cursor's tool names to the target's; a name missing
	// here has no counterpart. native are the target's own tool names,
	// kept as written when a matcher names them.
	tools  map[string][]string
	native map[string]bool
	// mcpAll is the matcher part for every MCP tool, mcpOne (a format
	// with %s for the regexp-quoted tool name) for one; "" when the
	// target's MCP tool names are unknown.
	mcpAll, mcpOne string
	style          matcherStyle
	// nameRune reports whether r may appear in the target's exact name
	// lists (besides |).
	nameRune func(r rune) bool
	// prompts are the events where the target runs prompt hooks.
	prompts map[string]bool
	// flat: handlers sit directly under the event, each with its own
	// matcher (Copilot); otherwise in Claude's matcher groups.
	flat bool
	// version: the document starts with "version": 1 (Copilot).
	version bool
	// projectDir is the shell expression of the project root in the
	// target's hooks, "" when it has none.
	projectDir string
	// millis: timeouts in milliseconds (Gemini CLI), else whole seconds.
	millis bool
	// managedFix says how to deploy managed hooks for the target.
	managedFix string
	// missingSteps says why a step has no counterpart and what to do,
	// where the generic text would not say enough.
	missingSteps map[event.Step][2]string
	// shapes say, per step, how the target's payload differs from
	// Cursor's and what answer it reads (warnings.go).
	shapes map[event.Step][2]string
}

var targets = []*target{claude, gemini, codex, copilot}

func lookup(name string) *target {
	for _, t := range targets {
		if t.name == name {
			return t
		}
	}
	return nil
}

// install is the advice for keeping a hook as Cursor runs it.
func (t *target) install() string {
	return "`agenthooks install --agent " + t.name + "`"
}

func isWordRune(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
}

// Tool events shared by the Claude-shaped targets.
func toolSteps(pre, post string) map[event.Step]stepMap {
	return map[event.Step]stepMap{
		event.PreToolUse:           {pre, fromHook, ""},
		event.PostToolUse:          {post, fromHook, ""},
		event.BeforeShellExecution: {pre, fromTool, toolShell},
		event.AfterShellExecution:  {post, fromTool, toolShell},
		event.BeforeMCPExecution:   {pre, fromTool, toolMCP},
		event.AfterMCPExecution:    {post, fromTool, toolMCP},
		event.BeforeReadFile:       {pre, fromTool, toolReadGate},
		event.AfterFileEdit:        {post, fromTool, toolWrite},
	}
}

// lifecycle names the target's events for the steps about no tool; ""
// where the target has none.
type lifecycle struct {
	prompt, stop, subagentStop, sessionStart, sessionEnd, compact string
}

// claudeLifecycle are Claude Code's lifecycle events, which Codex shares.
var claudeLifecycle = lifecycle{prompt: "UserPromptSubmit", stop: "Stop", subagentStop: "SubagentStop",
	sessionStart: "SessionStart", sessionEnd: "SessionEnd", compact: "PreCompact"}

// steps maps the lifecycle steps to their events, which take no matcher.
func (l lifecycle) steps() map[event.Step]stepMap {
	m := map[event.Step]stepMap{}
	for step, ev := range map[event.Step]string{
		event.BeforeSubmitPrompt: l.prompt,
		event.Stop:               l.stop,
		event.SubagentStop:       l.subagentStop,
		event.SessionStart:       l.sessionStart,
		event.SessionEnd:         l.sessionEnd,
		event.PreCompact:         l.compact,
	} {
		if ev != "" {
			m[step] = stepMap{ev, noMatcher, ""}
		}
	}
	return m
}

func without(m map[event.Step]stepMap, steps ...event.Step) map[event.Step]stepMap {
	for _, s := range steps {
		delete(m, s)
	}
	return m
}

func with(m map[event.Step]stepMap, more ...map[event.Step]stepMap) map[event.Step]stepMap {
	for _, mm := range more {
		maps.Copy(m, mm)
	}
	return m
}

// claude: Claude Code's settings.json (Claude Code's hooks reference;
// docs/export.md).
var claude = &target{
	name: "claude", title: "Claude Code",
	projectPath: ".claude/settings.json", userPath: ".claude/settings.json",
	steps: with(toolSteps("PreToolUse", "PostToolUse"), claudeLifecycle.steps(), map[event.Step]stepMap{
		event.PostToolUseFailure: {"PostToolUseFailure", fromHook, ""},
		// SubagentStart cannot refuse a subagent; the Task/Agent tool's
		// PreToolUse can, and is where the dialect runs subagentStart.
		event.SubagentStart: {"PreToolUse", fromTool, toolTask},
	}),
	eventOrder: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
		"Stop", "SubagentStop", "PreCompact", "SessionEnd"},
	tools: map[string][]string{
		toolShell: {"Bash"}, toolRead: {"Read"}, toolReadGate: {"Read"},
		toolWrite: {"Write", "Edit", "MultiEdit", "NotebookEdit"},
		toolGrep:  {"Grep"}, toolGlob: {"Glob"}, toolTask: {"Task", "Agent"},
		toolWebFetch: {"WebFetch"}, toolWebSearch: {"WebSearch"}, toolLS: {"LS"},
	},
	native: set("Bash", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Grep", "Glob", "Task", "Agent",
		"WebFetch", "WebSearch", "TodoWrite", "LS", "BashOutput", "KillShell", "ExitPlanMode", "SlashCommand", "Skill"),
	mcpAll: "mcp__.*", mcpOne: "mcp__.+__%s",
	style:    nameList,
	nameRune: func(r rune) bool { return isWordRune(r) || r == '-' },
	// Prompt hooks: the tool, prompt and stop events (not SessionStart,
	// SessionEnd or PreCompact).
	prompts:    set("PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "SubagentStop"),
	projectDir: `"$CLAUDE_PROJECT_DIR"`,
	shapes:     claudeShapes,
	managedFix: "to keep them managed, deploy them in Claude Code's managed-settings.json (/etc/claude-code/ on Linux, /Library/Application Support/ClaudeCode/ on macOS)",
}

// gemini: Gemini CLI's settings.json (Gemini CLI's hooks documentation;
// docs/export.md). Timeouts are
// milliseconds; every hook has a name.
var gemini = &target{
	name: "gemini", title: "Gemini CLI",
	projectPath: ".gemini/settings.json", userPath: ".gemini/settings.json",
	steps: with(toolSteps("BeforeTool", "AfterTool"), lifecycle{prompt: "BeforeAgent", stop: "AfterAgent",
		sessionStart: "SessionStart", sessionEnd: "SessionEnd", compact: "PreCompress"}.steps(), map[event.Step]stepMap{
		// No failure event: AfterTool runs after failed calls too.
		event.PostToolUseFailure: {"AfterTool", fromHook, ""},
	}),
	eventOrder: []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "PreCompress", "SessionEnd"},
	tools: map[string][]string{
		toolShell: {"run_shell_command"}, toolRead: {"read_file", "read_many_files"}, toolReadGate: {"read_file"},
		toolWrite: {"write_file", "replace", "edit"},
		toolGrep:  {"grep", "grep_search", "search_file_content"}, toolGlob: {"glob"},
		toolWebFetch: {"web_fetch"}, toolWebSearch: {"google_web_search"}, toolLS: {"list_directory"},
	},
	native: set("run_shell_command", "read_file", "read_many_files", "write_file", "replace", "edit", "glob", "grep",
		"grep_search", "search_file_content", "list_directory", "web_fetch", "google_web_search", "save_memory", "write_todos"),
	mcpAll: "mcp_.*", mcpOne: "mcp_.+_%s",
	style:      regex,
	prompts:    set(), // command hooks only
	projectDir: "$GEMINI_PROJECT_DIR",
	millis:     true,
	shapes:     geminiShapes,
	managedFix: "to keep them managed, deploy them in Gemini CLI's system settings file (/etc/gemini-cli/settings.json on Linux)",
	missingSteps: map[event.Step][2]string{
		event.SubagentStart: {"Gemini CLI has no subagent tool that a hook could stop", "keep it in Cursor"},
		event.SubagentStop:  {"Gemini CLI reports no subagent stop to hooks", "keep it in Cursor"},
	},
}

// codex: Codex's hooks.json (Codex's hooks documentation; docs/export.md):
// Claude's shape with its own events and tools; no prompt hooks.
var codex = &target{
	name: "codex", title: "Codex",
	projectPath: ".codex/hooks.json", userPath: ".codex/hooks.json",
	steps: with(without(toolSteps("PreToolUse", "PostToolUse"), event.BeforeReadFile), claudeLifecycle.steps()),
	eventOrder: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStop",
		"PreCompact", "SessionEnd"},
	// apply_patch is Codex's one file-writing tool (its matchers also
	// accept the aliases Write and Edit); Codex has no read, search or
	// subagent tool of its own: it reads through its shell.
	tools: map[string][]string{
		toolShell: {"Bash"}, toolWrite: {"apply_patch"},
	},
	native: set("Bash", "apply_patch", "Write", "Edit"),
	mcpAll: "mcp__.*", mcpOne: "mcp__.+__%s",
	style:      nameList,
	nameRune:   isWordRune,
	prompts:    set(), // Codex skips prompt hooks with a warning
	shapes:     codexShapes,
	managedFix: "to keep them managed, deploy them as Codex managed hooks (requirements.toml or your MDM)",
	missingSteps: map[event.Step][2]string{
		event.BeforeReadFile: {"Codex reads files through its shell, not a read tool a hook could gate",
			"gate reads in a beforeShellExecution hook that looks at the command"},
		event.PostToolUseFailure: {"Codex has no event for failed tool calls", "keep it in Cursor, or run it through `agenthooks install --agent codex`"},
		event.SubagentStart:      {"Codex has no subagent tool that a hook could stop", "keep it in Cursor"},
	},
}

// copilot: GitHub Copilot's .github/hooks/*.json (Copilot's hooks
// documentation; docs/export.md): a flat list of handlers per event, each
// with bash, powershell, cwd, timeoutSec and matcher.
var copilot = &target{
	name: "copilot", title: "GitHub Copilot",
	projectPath: ".github/hooks/cursor-hooks.json", userPath: ".copilot/hooks/cursor-hooks.json",
	steps: with(without(toolSteps("preToolUse", "postToolUse"), event.BeforeMCPExecution, event.AfterMCPExecution),
		lifecycle{prompt: "userPromptSubmitted", stop: "agentStop", subagentStop: "subagentStop",
			sessionStart: "sessionStart", sessionEnd: "sessionEnd", compact: "preCompact"}.steps(),
		map[event.Step]stepMap{
			event.PostToolUseFailure: {"postToolUseFailure", fromHook, ""},
			// Copilot's own subagentStart is not a gate agenthooks relies on;
			// the task tool's preToolUse is (as in the dialect).
			event.SubagentStart: {"preToolUse", fromTool, toolTask},
		}),
	eventOrder: []string{"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "postToolUseFailure",
		"agentStop", "subagentStop", "preCompact", "sessionEnd"},
	tools: map[string][]string{
		toolShell: {"bash", "powershell"}, toolRead: {"view"}, toolReadGate: {"view"},
		toolWrite: {"create", "edit"}, toolGrep: {"grep"}, toolGlob: {"glob"}, toolTask: {"task"},
		toolWebFetch: {"web_fetch"},
	},
	native:  set("bash", "powershell", "view", "create", "edit", "grep", "glob", "task", "web_fetch", "ask_user"),
	style:   anchored,
	prompts: set(), // Copilot's prompt type is a sessionStart prompt, not a model's verdict
	flat:    true, version: true,
	shapes:     copilotShapes,
	managedFix: "to keep them managed, distribute them in the repositories' .github/hooks/ through your organization",
	missingSteps: map[event.Step][2]string{
		event.BeforeMCPExecution: {"agenthooks does not know how GitHub Copilot names MCP tools to hooks",
			"add a preToolUse hook by hand whose matcher names the MCP tools"},
		event.AfterMCPExecution: {"agenthooks does not know how GitHub Copilot names MCP tools to hooks",
			"add a postToolUse hook by hand whose matcher names the MCP tools"},
	},
}

// missing says why a step has no counterpart in t, and what to do.
func (t *target) missing(step event.Step) (msg, fix string) {
	if s, ok := t.missingSteps[step]; ok {
		return s[0], s[1]
	}
	switch {
	case step.Tab():
		return "Tab completions are Cursor's own: no agent runs hooks for them", "keep it in Cursor"
	case step == event.AfterAgentThought:
		return t.title + " shows hooks no thinking blocks", "keep it in Cursor"
	case step == event.AfterAgentResponse:
		fix := "keep it in Cursor"
		switch t.name {
		case "claude", "codex":
			fix = "if the turn's last message is enough, make it a stop hook: " + t.title + " sends it as last_assistant_message"
		case "gemini":
			fix = "if the turn's last message is enough, make it a stop hook: Gemini CLI sends it as prompt_response"
		}
		return t.title + " has no event after each response", fix
	}
	return fmt.Sprintf("%s has no event for %s", t.title, step), "keep it in Cursor"
}

// promptMissing says why a prompt hook cannot run at ev.
func (t *target) promptMissing(ev string) string {
	switch t.name {
	case "claude":
		return "Claude Code runs prompt hooks only at tool, prompt and stop events, not at " + ev
	case "gemini":
		return "Gemini CLI runs command hooks only, no prompt hooks"
	case "codex":
		return "Codex does not run prompt hooks (it skips them)"
	}
	return t.title + "'s prompt hooks are not a model's verdict (its prompt type only adds a prompt at sessionStart)"
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
