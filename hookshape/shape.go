// Package hookshape is the seam between the engine's core and the hooks
// written for another agent (the hooks of that agent's own settings
// files, run here as Cursor runs its "third-party hooks"). The core runs
// such a hook through the Shape its configuration carries and never names
// the agent: the agent's package implements Shape, and the core packages
// (config, runner, engine, policy) only call it.
package hookshape

import (
	"encoding/json"

	"github.com/agenthooks/agenthooks/event"
)

// Shape is how hooks written for another agent are matched, fed and read.
// Implementations are comparable values (pointers or empty structs), so
// the engine can translate a payload once per shape and step.
type Shape interface {
	// Title is the agent's name in messages ("… hook answer: …").
	Title() string
	// Targets returns the values such a hook's matcher is tested against
	// for a Cursor payload, by the agent's rules; ok is false where the
	// agent ignores matchers, so every hook of the step runs.
	Targets(step event.Step, fields map[string]json.RawMessage) (targets []string, ok bool)
	// Input turns a Cursor payload into the one such a hook reads.
	Input(step event.Step, payload []byte) ([]byte, error)
	// Output reads such a hook's exit code and output by the agent's
	// rules as a Cursor hook's answer.
	Output(step event.Step, exitCode int, stdout, stderr []byte) Answer
	// EnvFileVar names the environment variable through which the agent
	// hands a sessionStart hook a file to append `export K=V` lines to;
	// "" when the agent has none.
	EnvFileVar() string
	// InProcess reports whether an in-process runner (a policy) may run
	// such a hook. The process path is the one that feeds the agent's
	// payload and reads the answer by its rules, so a shape whose payload
	// or answer differs from Cursor's says no.
	InProcess() bool
}

// Answer is a hook's output read by its agent's rules as a Cursor hook's.
type Answer struct {
	// Response is a response in Cursor's shape for the step, or nil for
	// no opinion.
	Response []byte
	// Block: the hook blocked the step by the agent's exit-code rule; the
	// engine's exit-2 rule then applies, with Response's messages.
	Block bool
	// Failure is set when the hook failed by the agent's rules: why, in
	// words.
	Failure string
	// Ignored names what the hook answered that the Cursor step cannot
	// carry (context before a tool runs, say), for the log and
	// `agenthooks test`; "" when nothing was dropped.
	Ignored string
}

// MatcherTargeter is a Shape some of whose payloads leave a matcher's
// target open (an MCP tool whose server the host does not name): for
// those it gives, per hook, further values that hook's matcher is tested
// against beside Targets', worked out from the matcher itself.
type MatcherTargeter interface {
	MatcherTargets(step event.Step, fields map[string]json.RawMessage, matcher string) []string
}
