package codex

import (
	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/export"
)

// Export is Codex's hooks.json (Codex's hooks documentation; docs/export.md):
// Claude's shape with its own events and tools; no prompt hooks.
var Export = &export.Target{
	Name: "codex", Title: "Codex",
	ProjectPath: ".codex/hooks.json", UserPath: ".codex/hooks.json",
	Steps: export.With(export.Without(export.ToolSteps(events.Named(agent.Tool), events.Named(agent.PostTool)), event.BeforeReadFile),
		events.Lifecycle().Steps()),
	EventOrder: events.Names(),
	// apply_patch is Codex's one file-writing tool (its matchers also
	// accept the aliases Write and Edit); Codex has no read, search or
	// subagent tool of its own: it reads through its shell.
	Tools:  tools.ExportTools(),
	Native: export.Set(append(tools.Names(), "Write", "Edit")...),
	MCPAll: "mcp__.*", MCPOne: "mcp__.+__%s",
	Style:            export.NameList,
	NameRune:         export.IsWordRune,
	Prompts:          export.Set(), // Codex skips prompt hooks with a warning
	Shapes:           codexShapes,
	Sandbox:          codexSandbox,
	LocationWarning:  "Codex gives hooks no project-folder variable, so the commands change into %s by its absolute path: the file works in this checkout only",
	ShellReadsFix:    "Codex reads and searches through its shell: match Bash and look at the command",
	LastMessageField: "last_assistant_message",
	PromptMissing:    func(string) string { return "Codex does not run prompt hooks (it skips them)" },
	Ask: [2]string{"Codex cannot ask the user: it rejects an ask answer as invalid and the action goes ahead",
		"answer deny, with a reason telling the model to get the user's confirmation"},
	FailClosedFix: "make the script exit 2 with a reason on stderr when it fails",
	ExitCodes: map[string][2]string{"PreToolUse": {"Codex blocks on exit code 2 only with a reason on stderr; with stderr empty the hook counts as failed and the action goes ahead",
		"write the reason to stderr before exiting 2"}},
	ManagedFix: "to keep them managed, deploy them as Codex managed hooks (requirements.toml or your MDM)",
	MissingSteps: map[event.Step][2]string{
		event.BeforeReadFile: {"Codex reads files through its shell, not a read tool a hook could gate",
			"gate reads in a beforeShellExecution hook that looks at the command"},
		event.PostToolUseFailure: {"Codex has no event for failed tool calls", "keep it in Cursor, or run it through `agenthooks install --agent codex`"},
		event.SubagentStart:      {"Codex has no subagent tool that a hook could stop", "keep it in Cursor"},
	},
}

var codexShapes = map[event.Step][2]string{
	event.PreToolUse:           {"Codex's tool names (Bash, apply_patch, mcp__…, not Shell, Write) and tool inputs; session_id, not conversation_id", codexGate + "; allow with updatedInput, not updated_input"},
	event.PostToolUse:          {"Codex's tool names and inputs; tool_response, not tool_output", "hookSpecificOutput.additionalContext, not additional_context"},
	event.BeforeShellExecution: {"the command is in tool_input.command, not command", codexGate},
	event.AfterShellExecution:  {"tool_input.command and tool_response, not command and output", ""},
	event.BeforeMCPExecution:   {"tool_name is mcp__<server>__<tool> and tool_input an object; no url or command of the server", codexGate},
	event.AfterMCPExecution:    {"tool_name is mcp__<server>__<tool>; tool_response, not result_json", ""},
	event.AfterFileEdit:        {"a PostToolUse of apply_patch: the patch text is in tool_input.command, not file_path and edits", ""},
	event.SubagentStop:         {"stop_hook_active and last_assistant_message, not subagent_type, status, summary and loop_count", agent.StopBlockAnswer},
	event.Stop:                 {"stop_hook_active and last_assistant_message, not status and loop_count", agent.StopBlockAnswer},
	event.BeforeSubmitPrompt:   {"prompt, without attachments; session_id, not conversation_id", `decision "block" with a reason, not continue false and user_message`},
	event.SessionStart:         {"source, not is_background_agent and composer_mode", "hookSpecificOutput.additionalContext, not additional_context; env as export lines appended to $CODEX_ENV_FILE, not env"},
	event.SessionEnd:           {"Codex's own reason values", ""},
	event.PreCompact:           {"trigger, not the context_* counts", "systemMessage, not user_message"},
}

// The answer a Copilot preToolUse hook gives.

// codexGate is the answer a Codex gate reads.
const codexGate = `hookSpecificOutput.permissionDecision "deny" with a permissionDecisionReason, not permission; Codex rejects ask, and allow without updatedInput; exit code 2 still blocks`
