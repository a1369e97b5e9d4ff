package engine

import "github.com/agenthooks/agenthooks/event"

// noWorkaround ends every model-visible denial, as Cursor's do: a model
// told only "no" tends to try the same thing another way.
const noWorkaround = "Do not attempt to work around this restriction using alternative methods or commands."

// setBlockMessages fills ClientMessage and ModelMessage for a blocked step,
// worded as Cursor words them (docs/semantics.md, blocking messages), with
// the hooks' own messages.
func setBlockMessages(d *Decision, filePath, toolName string) {
	if !d.Blocked() {
		return
	}
	var client, model string
	switch d.Step {
	case event.BeforeShellExecution:
		client = "Command execution was blocked by a hook"
		model = "The terminal command was rejected by a hook."
	case event.BeforeMCPExecution:
		client = "MCP tool execution was blocked by a hook"
		model = "The MCP tool call was rejected by a hook."
	case event.BeforeReadFile, event.BeforeTabFileRead:
		// Cursor's FileReadBlockedByHookError: the sentence goes to the
		// model right after the path, before any message of the hooks.
		client = "File reading was blocked by a security hook: " + filePath
		d.ClientMessage = withDetail(client, d.UserMessage)
		d.ModelMessage = client + ". " + noWorkaround
		if d.AgentMessage != "" {
			d.ModelMessage += " " + d.AgentMessage
		}
		return
	case event.PreToolUse:
		client = "Tool use was blocked by a hook"
		model = "The " + orDefault(toolName, "tool") + " tool call was rejected by a hook."
	case event.SubagentStart:
		client = "Subagent creation was blocked by a hook"
		model = "Starting the subagent was rejected by a hook."
	case event.BeforeSubmitPrompt:
		client = "Submission blocked by hook"
		model = "The prompt submission was blocked by a hook."
	default:
		return
	}
	d.ClientMessage = withDetail(client, d.UserMessage)
	agent := d.AgentMessage
	if agent == "" {
		agent = d.UserMessage
	}
	if agent != "" {
		model += " " + agent
	}
	d.ModelMessage = model + " " + noWorkaround
}

func withDetail(head, detail string) string {
	if detail == "" {
		return head
	}
	return head + ": " + detail
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
