package claude

import (
	"encoding/json"
	"strings"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/hookshape"
)

// Shape runs the hooks of Claude Code's settings files: the core knows
// them only through it.
var Shape hookshape.Shape = shape{}

var _ hookshape.MatcherTargeter = shape{}

// EnvFileVar is the variable through which Claude Code hands its
// SessionStart hooks a file to append `export K=V` lines to.
const EnvFileVar = "CLAUDE_ENV_FILE"

// ProjectDirVar is the variable Claude Code's hooks find the project root
// in ("$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh); the engine sets it for
// every hook.
const ProjectDirVar = "CLAUDE_PROJECT_DIR"

// Title is Claude Code's name in messages.
const Title = "Claude Code"

type shape struct{}

func (shape) Title() string { return Title }

func (shape) Targets(step event.Step, fields map[string]json.RawMessage) ([]string, bool) {
	return Targets(step, fields)
}

func (shape) Input(step event.Step, payload []byte) ([]byte, error) { return Input(step, payload) }

func (shape) Output(step event.Step, exitCode int, stdout, stderr []byte) hookshape.Answer {
	return Output(step, exitCode, stdout, stderr)
}

func (shape) EnvFileVar() string { return EnvFileVar }

// InProcess is false: a policy reads Cursor's payload and answers in
// Cursor's shape, while these hooks get Claude Code's and are read by its
// rules, which only the process path does.
func (shape) InProcess() bool { return false }

// MatcherTargets: an MCP tool whose server the payload does not name
// (Cursor's own MCP:<tool>) is matched under every server the matcher
// names, so a matcher on one server's tools runs rather than never.
func (shape) MatcherTargets(step event.Step, fields map[string]json.RawMessage, matcher string) []string {
	switch step {
	case event.PreToolUse, event.PostToolUse, event.PostToolUseFailure:
	default:
		return nil
	}
	tool, ok := strings.CutPrefix(str(fields, "tool_name"), "MCP:")
	if !ok {
		return nil
	}
	if server, _ := mcpServer(fields); server != "" {
		return nil
	}
	return unknownServerNames(tool, matcher)
}
