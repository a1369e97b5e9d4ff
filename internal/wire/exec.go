package wire

import (
	"context"

	"github.com/agenthooks/agenthooks/internal/proc"
)

// The halves of `agenthooks exec` for a client that runs the command
// itself (host.PlanExec and host.ReportExec, which name these types; the
// verbs exec --plan and exec --report): the engine gates the command and
// answers a plan; the client asks the user when the
// plan says so, runs the command, and reports how it ended. They travel as
// JSON in a step's body and answer, like any served verb's.

// ExecPlan is how a gated command runs, or why it does not: the engine's
// answer to exec --plan.
type ExecPlan struct {
	// Stderr is printed before anything else: configuration problems,
	// a rewritten command.
	Stderr string `json:"stderr,omitempty"`
	// Run says the command may run; Ask, when set, says it may only
	// once the user says yes on the terminal.
	Run bool     `json:"run"`
	Ask *ExecAsk `json:"ask,omitempty"`
	// Messages are printed when the command does not run; Reason is what
	// the report of its refusal gives the hooks.
	Messages []string `json:"messages,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	// Argv runs in Dir, as it is (the shell is argv[0] when one is
	// needed). PTY allows a pseudo-terminal when stdout is a terminal.
	Argv []string `json:"argv"`
	Dir  string   `json:"dir"`
	PTY  bool     `json:"pty"`
	// Sandbox says Argv enters the sandbox (the engine binary's
	// trampoline around the command): hooks were told sandbox: true.
	Sandbox bool `json:"sandbox,omitempty"`
	// Hooks is false for a hook's own command, which has no after-hooks:
	// nothing is reported.
	Hooks bool      `json:"hooks"`
	Call  *ExecCall `json:"call,omitempty"`
}

// ExecAsk is the question a hook's "ask" puts to the user, and what the
// refusal says in each case.
type ExecAsk struct {
	Question     string `json:"question"`
	NoTerminal   string `json:"no_terminal"`
	NotConfirmed string `json:"not_confirmed"`
	// NoAnswer is followed by why there was no answer.
	NoAnswer string `json:"no_answer"`
}

// ExecCall is what the after-hooks of a planned command need to know of it.
type ExecCall struct {
	Roots        []string `json:"roots"`
	Cwd          string   `json:"cwd"`
	Command      string   `json:"command"`
	Conversation string   `json:"conversation,omitempty"`
	ToolUseID    string   `json:"tool_use_id"`
	Quiet        bool     `json:"quiet,omitempty"`
	// Sandbox says the command ran inside the sandbox.
	Sandbox bool `json:"sandbox,omitempty"`
}

// ExecReport is the input of exec --report: the call, and either why it
// was refused or how it ended.
type ExecReport struct {
	Call    ExecCall    `json:"call"`
	Refused string      `json:"refused,omitempty"`
	Result  *ExecResult `json:"result,omitempty"`
}

// ExecResult is how a command ended.
type ExecResult struct {
	Code        int    `json:"code"`
	Signal      string `json:"signal,omitempty"`
	Interrupted bool   `json:"interrupted,omitempty"`
	StartErr    string `json:"start_error,omitempty"`
	Output      string `json:"output"`
	DurationMS  int64  `json:"duration_ms"`
}

// ExecArgs returns the arguments of exec when args are an exec: `exec
// ARGS…`, or the form agents use with $SHELL (`-c STRING`, `-lc STRING`,
// `-ic STRING`), which means `exec -c STRING`.
func ExecArgs(args []string) ([]string, bool) {
	if len(args) == 0 {
		return nil, false
	}
	if args[0] == "exec" {
		return args[1:], true
	}
	a := args[0]
	if len(a) < 2 || a[0] != '-' || a[1] == '-' || a[len(a)-1] != 'c' {
		return nil, false
	}
	for _, f := range a[1:] {
		if f != 'l' && f != 'i' && f != 'c' {
			return nil, false
		}
	}
	return args, true
}

// Confirm puts the question to the user on the terminal, when in or
// errOut (the caller's stdin and stderr) is one, and reports whether to
// run and, when not, why. ctx ending takes the question back.
func (q *ExecAsk) Confirm(ctx context.Context, in, errOut any) (bool, string) {
	if !proc.IsTerminal(in) && !proc.IsTerminal(errOut) {
		return false, q.NoTerminal
	}
	t, err := proc.OpenTerminal()
	if err != nil {
		return false, q.NoTerminal
	}
	defer t.Close()
	yes, err := t.Ask(ctx, q.Question)
	switch {
	case err != nil:
		return false, q.NoAnswer + err.Error()
	case !yes:
		return false, q.NotConfirmed
	}
	return true, ""
}
