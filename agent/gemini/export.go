package gemini

import (
	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/export"
)

// Export is Gemini CLI's settings.json (Gemini CLI's hooks documentation;
// docs/export.md). Timeouts are
// milliseconds; every hook has a name.
var Export = &export.Target{
	Name: "gemini", Title: "Gemini CLI",
	ProjectPath: ".gemini/settings.json", UserPath: ".gemini/settings.json",
	Steps: export.With(export.ToolSteps(events.Named(agent.Tool), events.Named(agent.PostTool)), events.Lifecycle().Steps(), map[event.Step]export.StepMap{
		// No failure event: AfterTool runs after failed calls too.
		event.PostToolUseFailure: {Event: events.Named(agent.PostTool), Matcher: export.FromHook, Tool: ""},
	}),
	EventOrder: events.Names(),
	Tools:      tools.ExportTools(),
	Native:     export.Set(append(tools.Names(), "save_memory", "write_todos")...),
	MCPAll:     "mcp_.*", MCPOne: "mcp_.+_%s",
	Style:            export.Regex,
	Prompts:          export.Set(), // command hooks only
	ProjectDir:       "$GEMINI_PROJECT_DIR",
	Millis:           true,
	Shapes:           geminiShapes,
	NamedHooks:       true,
	LastMessageField: "prompt_response",
	PromptMissing:    func(string) string { return "Gemini CLI runs command hooks only, no prompt hooks" },
	ExitCodes: map[string][2]string{
		"BeforeTool":  {exitDeny + "a script that fails that way blocks", exitFix},
		"BeforeAgent": {exitDeny + "a script that fails that way blocks", exitFix},
		"AfterAgent":  {exitDeny + "a script that fails that way makes Gemini CLI go on with the error output as its next prompt", exitFix},
	},
	EventWarnings: map[event.Step][2]string{
		event.PostToolUseFailure: {"Gemini CLI has no event for failed tool calls: the hook now runs after every call of its tools, failed or not",
			"return at once unless tool_response.error is set"},
		event.SessionStart: {"Gemini CLI has no session environment for hooks: the env the hook returns is lost",
			"have the hooks that need the values compute them themselves"},
	},
	ManagedFix: "to keep them managed, deploy them in Gemini CLI's system settings file (/etc/gemini-cli/settings.json on Linux)",
	MissingSteps: map[event.Step][2]string{
		event.SubagentStart: {"Gemini CLI has no subagent tool that a hook could stop", "keep it in Cursor"},
		event.SubagentStop:  {"Gemini CLI reports no subagent stop to hooks", "keep it in Cursor"},
	},
}

var geminiShapes = map[event.Step][2]string{
	event.PreToolUse:           {"Gemini CLI's tool names (run_shell_command, write_file, …, not Shell, Write) and tool inputs; session_id, not conversation_id", `decision "deny" or "ask" with a reason, not permission; hookSpecificOutput.tool_input, not updated_input`},
	event.PostToolUse:          {"Gemini CLI's tool names and inputs; tool_response {llmContent, returnDisplay, error}, not tool_output", "hookSpecificOutput.additionalContext, not additional_context"},
	event.PostToolUseFailure:   {"Gemini CLI's tool names and inputs; the error is tool_response.error, not error_message", ""},
	event.BeforeShellExecution: {"the command is in tool_input.command, not command", `decision "deny" or "ask" with a reason, not permission; exit code 2 still blocks`},
	event.AfterShellExecution:  {"tool_input.command and tool_response, not command and output", ""},
	event.BeforeMCPExecution:   {"the server and tool are in mcp_context and tool_input is an object; no url or command of the server", `decision "deny" or "ask" with a reason, not permission; exit code 2 still blocks`},
	event.AfterMCPExecution:    {"tool_response, not result_json", ""},
	event.BeforeReadFile:       {"the path is in tool_input; no content, no attachments", `decision "deny" with a reason, not permission; exit code 2 still blocks`},
	event.AfterFileEdit:        {"tool_input holds file_path with content, or old_string and new_string, not edits", ""},
	event.Stop:                 {"prompt, prompt_response and stop_hook_active, not status and loop_count", `decision "deny" with a reason, which Gemini CLI sends as the next prompt, not followup_message`},
	event.BeforeSubmitPrompt:   {"prompt, without attachments; session_id, not conversation_id", `decision "deny" with a reason, not continue false and user_message`},
	event.SessionStart:         {"source, not is_background_agent and composer_mode", "hookSpecificOutput.additionalContext, not additional_context"},
	event.SessionEnd:           {"Gemini CLI's own reason values", ""},
	event.PreCompact:           {"trigger, not the context_* counts", "systemMessage, not user_message"},
}

// How Gemini CLI reads exit codes, for the warnings.
const (
	exitDeny = "Gemini CLI takes any exit code but 0 and 1, without JSON on stdout, as a deny (Cursor denies only on 2): "
	exitFix  = "exit 0 or 1 unless the hook means to block, or print JSON"
)
