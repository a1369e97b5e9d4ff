package claude

import (
	"time"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/export"
)

// Export is Claude Code's settings.json (Claude Code's hooks reference;
// docs/export.md).
var Export = &export.Target{
	Name: "claude", Title: "Claude Code",
	ProjectPath: ".claude/settings.json", UserPath: ".claude/settings.json",
	Steps: export.With(export.ToolSteps(Event(event.PreToolUse), Event(event.PostToolUse)), exportLifecycle.Steps(), map[event.Step]export.StepMap{
		event.PostToolUseFailure: {Event: Event(event.PostToolUseFailure), Matcher: export.FromHook, Tool: ""},
		// SubagentStart cannot refuse a subagent; the Task/Agent tool's
		// PreToolUse can, and is where the dialect runs subagentStart.
		event.SubagentStart: {Event: Event(event.PreToolUse), Matcher: export.FromTool, Tool: export.ToolTask},
	}),
	EventOrder: Events(),
	Tools:      tools.ExportTools(),
	Native:     export.Set(append(tools.Names(), otherTools...)...),
	MCPAll:     "mcp__.*", MCPOne: "mcp__.+__%s",
	Style:    export.NameList,
	NameRune: func(r rune) bool { return export.IsWordRune(r) || r == '-' },
	// Prompt hooks: the tool, prompt and stop events (not SessionStart,
	// SessionEnd or PreCompact).
	Prompts:    export.Set(promptEvents()...),
	ProjectDir: `"$CLAUDE_PROJECT_DIR"`,
	Shapes:     claudeShapes,
	Sandbox:    claudeSandbox,
	EventBudgets: map[string]export.Budget{"SessionEnd": {Limit: time.Minute,
		Message: "Claude Code gives all SessionEnd hooks together at most 60 s, not the %s asked for",
		Fix:     "keep session-end work short, or move it to a Stop hook"}},
	LastMessageField: "last_assistant_message",
	PromptMissing: func(ev string) string {
		return "Claude Code runs prompt hooks only at tool, prompt and stop events, not at " + ev
	},
	Models:   []string{"claude", "haiku", "sonnet", "opus"},
	ModelFix: "name a Claude model (such as haiku), or remove model to use Claude Code's default",
	LoopCap:  8,
	ExitCodes: map[string][2]string{"PreCompact": {"Claude Code stops the compaction when the script exits 2 (Cursor's preCompact cannot block)",
		"exit 0 or 1 unless the hook means to stop compaction"}},
	ManagedFix: "to keep them managed, deploy them in Claude Code's managed-settings.json (/etc/claude-code/ on Linux, /Library/Application Support/ClaudeCode/ on macOS)",
}

// exportLifecycle are Claude Code's lifecycle events, from its table.
var exportLifecycle = export.Lifecycle{Prompt: Event(event.BeforeSubmitPrompt), Stop: Event(event.Stop),
	SubagentStop: Event(event.SubagentStop), SessionStart: Event(event.SessionStart),
	SessionEnd: Event(event.SessionEnd), Compact: Event(event.PreCompact)}

// claudeGate is the answers a Claude-shaped gate reads.
const claudeGate = "hookSpecificOutput.permissionDecision deny, ask or allow with permissionDecisionReason, not permission, user_message and agent_message; exit code 2 still blocks"

var claudeShapes = map[event.Step][2]string{
	event.PreToolUse:           {"Claude Code's tool names (Bash, Edit, …, not Shell, Write) and tool inputs; session_id, not conversation_id", claudeGate + "; updatedInput, not updated_input"},
	event.PostToolUse:          {"Claude Code's tool names and inputs; tool_response, not tool_output", "hookSpecificOutput.additionalContext, not additional_context"},
	event.PostToolUseFailure:   {"Claude Code's tool names and inputs; error, not error_message and failure_type", ""},
	event.BeforeShellExecution: {"the command is in tool_input.command, not command; no cwd of the command, no sandbox", claudeGate},
	event.AfterShellExecution:  {"tool_input.command and tool_response, not command and output", ""},
	event.BeforeMCPExecution:   {"tool_name is mcp__<server>__<tool> and tool_input an object; no url or command of the server", claudeGate},
	event.AfterMCPExecution:    {"tool_name is mcp__<server>__<tool>; tool_response, not result_json", ""},
	event.BeforeReadFile:       {"the path is tool_input.file_path; no content, no attachments", claudeGate},
	event.AfterFileEdit:        {"tool_input holds file_path with content, or old_string and new_string, not edits", ""},
	event.SubagentStart:        {"a PreToolUse of the Task or Agent tool: tool_input.subagent_type and tool_input.prompt, not subagent_type and task", claudeGate},
	event.SubagentStop:         {"agent_type, stop_hook_active and last_assistant_message, not subagent_type, status, summary and loop_count", agent.StopBlockAnswer},
	event.Stop:                 {"stop_hook_active and last_assistant_message, not status and loop_count", agent.StopBlockAnswer},
	event.BeforeSubmitPrompt:   {"prompt, without attachments; session_id, not conversation_id", `decision "block" with a reason, not continue false and user_message`},
	event.SessionStart:         {"source, not is_background_agent and composer_mode", "hookSpecificOutput.additionalContext, not additional_context; env as export lines appended to $CLAUDE_ENV_FILE, not env"},
	event.SessionEnd:           {"Claude Code's own reason values; no duration_ms or final_status", ""},
	event.PreCompact:           {"trigger and custom_instructions, not the context_* counts", "systemMessage, not user_message"},
}
