package claude_test

import (
	"fmt"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/agent/claude"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
)

// noWorkaround ends the engine's messages to the model on a denial.
const NoWorkaround = "Do not attempt to work around this restriction using alternative methods or commands."

// A Claude Code PreToolUse hook, as `agenthooks run --from claude` handles
// it: Parse gives the Cursor steps the event means, the engine runs each
// of them (here their decisions are written out by hand: the hooks denied
// the command), Merge folds the decisions into one verdict, and Answer
// words it as Claude Code reads a hook's answer.
func Example() {
	ag, ok := agents.Lookup("claude")
	if !ok {
		fmt.Println("no claude dialect")
		return
	}
	d := ag.Dialect
	payload := `{"session_id":"s1","cwd":"/src/app","hook_event_name":"PreToolUse",
	  "tool_name":"Bash","tool_input":{"command":"git push origin main"}}`
	req, err := d.Parse([]byte(payload), "")
	if err != nil {
		a := d.Fail(err) // the agent's own convention for a hook that fails
		fmt.Printf("exit %d: %s\n", a.Code, a.Stderr)
		return
	}
	for _, c := range req.Calls {
		fmt.Println("runs:", c.Step)
	}

	// What engine.Run returned for each call, in the order of req.Calls.
	decisions := []*engine.Decision{
		{Step: event.PreToolUse}, // no hook had an opinion
		{
			Step:          event.BeforeShellExecution,
			Permission:    event.Deny,
			UserMessage:   "pushing is for CI",
			ClientMessage: "Command execution was blocked by a hook: pushing is for CI",
			ModelMessage:  "The terminal command was rejected by a hook. pushing is for CI " + NoWorkaround,
		},
	}
	v := agent.Merge(decisions)
	fmt.Println("verdict:", v.Permission)

	a := d.Answer(req, v, agent.Options{})
	fmt.Printf("exit %d\nstdout: %s", a.Code, a.Stdout)
	// Output:
	// runs: preToolUse
	// runs: beforeShellExecution
	// verdict: deny
	// exit 0
	// stdout: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"The terminal command was rejected by a hook. pushing is for CI Do not attempt to work around this restriction using alternative methods or commands."}}
}

// A payload the dialect cannot read is answered by the agent's own
// convention for a failing hook: for Claude Code, exit 1 with the error on
// stderr.
func Example_fail() {
	_, err := claude.Dialect.Parse([]byte(`{"session_id":"s1","tool_name":"Bash"}`), "")
	a := claude.Dialect.Fail(err)
	fmt.Printf("exit %d\nstderr: %s\n", a.Code, a.Stderr)
	// Output:
	// exit 1
	// stderr: agenthooks: Claude Code payload: field "hook_event_name" is missing; Claude Code always sends it
}
