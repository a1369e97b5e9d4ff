package cli

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"

	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/internal/proc"
)

// execToolName is the tool name preToolUse and postToolUse hooks see for a
// terminal command, and what their matchers test (Cursor's hooks
// documentation; docs/semantics.md, Matchers).
const execToolName = "Shell"

// execCall is one command on its way through exec: what the hooks are told
// about it and how it will run.
type execCall struct {
	o   *execOptions
	eng *engine.Engine
	cwd string
	// command is the command line the hooks see.
	command string
	// argv, when set, runs as it is; otherwise command runs through the
	// shell, with shellArgs as $0, $1, ….
	argv      []string
	shellArgs []string
	// conversation and toolUseID tie the steps of this call together for
	// hooks that correlate preToolUse with postToolUse.
	conversation string
	toolUseID    string
	// sb is the sandbox the command runs in.
	sb execSandbox
}

func (o *execOptions) newCall(eng *engine.Engine, cwd string) *execCall {
	c := &execCall{o: o, eng: eng, cwd: cwd, conversation: o.conversation}
	switch {
	case o.scriptSet:
		c.command, c.shellArgs = o.script, o.args
	case len(o.args) == 1:
		c.command = o.args[0]
	default:
		c.command, c.argv = execQuoteArgs(o.args), o.args
	}
	if c.conversation == "" {
		c.conversation = o.io.getenv(envConversation)
	}
	c.toolUseID = execNewID()
	return c
}

// rewrite replaces the command with one a hook gave; it runs through the
// shell, since a hook speaks in command lines.
func (c *execCall) rewrite(command string) {
	c.command, c.argv, c.shellArgs = command, nil, nil
}

// argvToRun is how the command runs: as it is, or through the shell.
func (c *execCall) argvToRun() []string {
	if c.argv != nil {
		return c.argv
	}
	return append(proc.ForegroundShell(c.command), c.shellArgs...)
}

// payload returns a step's input with the fields every step of this call
// shares. Fields left out (generation_id, workspace_roots, …) are filled
// in by the engine.
func (c *execCall) payload(fields map[string]any) json.RawMessage {
	if c.conversation != "" {
		fields["conversation_id"] = c.conversation
	}
	fields["cwd"] = c.cwd
	return execJSON(fields)
}

// toolPayload is a preToolUse/postToolUse/postToolUseFailure input.
func (c *execCall) toolPayload(fields map[string]any) json.RawMessage {
	fields["tool_name"] = execToolName
	fields["tool_input"] = map[string]any{"command": c.command, "working_directory": c.cwd}
	fields["tool_use_id"] = c.toolUseID
	return c.payload(fields)
}

// execJSON encodes a payload without HTML escaping: hooks are shell
// scripts as often as not, and one that greps for "2>&1" must find it.
func execJSON(v any) json.RawMessage {
	b, err := jsonplain.Marshal(v)
	if err != nil {
		// Maps of strings, numbers and booleans always encode.
		return json.RawMessage("{}")
	}
	return b
}

// execNewID returns a random id for tool_use_id.
func execNewID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return "agenthooks-" + hex.EncodeToString(b[:])
}

// execUpdatedCommand returns the command of a preToolUse updated_input,
// when a hook gave one as a non-empty string.
func execUpdatedCommand(d *engine.Decision) (string, bool) {
	if d == nil || len(d.UpdatedInput) == 0 {
		return "", false
	}
	var in struct {
		Command *string `json:"command"`
	}
	if json.Unmarshal(d.UpdatedInput, &in) != nil || in.Command == nil || *in.Command == "" {
		return "", false
	}
	return *in.Command, true
}
