package copilot

import (
	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/export"
)

// Export is GitHub Copilot's .github/hooks/*.json (Copilot's hooks
// documentation; docs/export.md): a flat list of handlers per event, each
// with bash, powershell, cwd, timeoutSec and matcher.
var Export = &export.Target{
	Name: "copilot", Title: "GitHub Copilot",
	ProjectPath: ".github/hooks/cursor-hooks.json", UserPath: ".copilot/hooks/cursor-hooks.json",
	Steps: export.With(export.Without(export.ToolSteps(events.Named(agent.Tool), events.Named(agent.PostTool)), event.BeforeMCPExecution, event.AfterMCPExecution),
		events.Lifecycle().Steps(),
		map[event.Step]export.StepMap{
			event.PostToolUseFailure: {Event: events.Named(agent.ToolFailure), Matcher: export.FromHook, Tool: ""},
			// Copilot's own subagentStart is not a gate agenthooks relies on;
			// the task tool's preToolUse is (as in the dialect).
			event.SubagentStart: {Event: events.Named(agent.Tool), Matcher: export.FromTool, Tool: export.ToolTask},
		}),
	EventOrder: events.Names(),
	Tools:      tools.ExportTools(),
	Native:     export.Set(append(tools.Names(), "ask_user")...),
	Style:      export.Anchored,
	Prompts:    export.Set(), // Copilot's prompt type is a sessionStart prompt, not a model's verdict
	Flat:       true, Version: true,
	Shapes:       copilotShapes,
	ShellEntries: true,
	CommandPlace: "the command in toolArgs",
	Ask: [2]string{"the Copilot cloud agent cannot ask the user and treats ask as deny (the CLI asks)",
		"answer deny or allow where the hook must work in the cloud agent"},
	FailClosedFix: `make the script print a deny answer when it fails (GitHub Copilot ignores exit code 2)`,
	LoopFix:       "count follow-ups in the script itself",
	ExitCodes: map[string][2]string{"preToolUse": {"GitHub Copilot takes exit code 2 as a warning, not a deny: a script that blocks with exit 2 no longer blocks",
		`print {"permissionDecision":"deny","permissionDecisionReason":"…"} and exit 0 instead`}},
	EventWarnings: map[event.Step][2]string{
		event.BeforeSubmitPrompt: {"GitHub Copilot does not read answers to userPromptSubmitted: the hook can no longer block a prompt",
			"keep prompt checks in Cursor, or gate the tools the prompt leads to in preToolUse"},
		event.SessionStart: {"GitHub Copilot does not read answers to sessionStart: the env and additional_context the hook returns are lost",
			"have the hooks that need the values compute them themselves"},
	},
	ManagedFix: "to keep them managed, distribute them in the repositories' .github/hooks/ through your organization",
	MissingSteps: map[event.Step][2]string{
		event.BeforeMCPExecution: {"GitHub Copilot has no MCP step: its hooks see an MCP tool as a preToolUse of <server>-<tool>",
			"add a preToolUse hook by hand whose matcher names the MCP tools (^memory-, say)"},
		event.AfterMCPExecution: {"GitHub Copilot has no MCP step: its hooks see an MCP tool as a postToolUse of <server>-<tool>",
			"add a postToolUse hook by hand whose matcher names the MCP tools (^memory-, say)"},
	},
}

const copilotGate = "permissionDecision allow, deny or ask with permissionDecisionReason, not permission, user_message and agent_message"

var copilotShapes = map[event.Step][2]string{
	event.PreToolUse:           {"camelCase fields: toolName is GitHub Copilot's (bash, edit, view, …, not Shell, Write) and toolArgs a JSON string, not tool_name and tool_input; sessionId, not conversation_id", copilotGate + "; modifiedArgs, not updated_input"},
	event.PostToolUse:          {"toolName, toolArgs (a JSON string) and toolResult, not tool_name, tool_input and tool_output", "nothing: GitHub Copilot does not read the answers of command hooks here, so additional_context is lost"},
	event.PostToolUseFailure:   {"toolName, toolArgs (a JSON string) and error, not tool_name, tool_input and error_message", ""},
	event.BeforeShellExecution: {"a preToolUse of bash or powershell: the command is inside toolArgs, a JSON string, not command", copilotGate},
	event.AfterShellExecution:  {"a postToolUse of bash or powershell: toolArgs and toolResult, not command and output", ""},
	event.BeforeReadFile:       {"a preToolUse of view: the path is inside toolArgs, a JSON string; no content, no attachments", copilotGate},
	event.AfterFileEdit:        {"a postToolUse of create or edit: the path and text are inside toolArgs, a JSON string, not file_path and edits", ""},
	event.SubagentStart:        {"a preToolUse of the task tool: the subagent is described inside toolArgs, not subagent_type and task", copilotGate},
	event.SubagentStop:         {"GitHub Copilot's own fields (agentName), not subagent_type, status, summary and loop_count", agent.StopBlockAnswer},
	event.Stop:                 {"stopReason, not status and loop_count", agent.StopBlockAnswer},
	event.BeforeSubmitPrompt:   {"prompt and sessionId, not conversation_id; no attachments", ""},
	event.SessionStart:         {"source and initialPrompt, not is_background_agent and composer_mode", ""},
	event.SessionEnd:           {"reason, GitHub Copilot's own values", ""},
	event.PreCompact:           {"trigger, not the context_* counts", "nothing: GitHub Copilot does not read the answer, so user_message is lost"},
}
