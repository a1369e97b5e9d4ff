package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/agent/contract"
	"github.com/agenthooks/agenthooks/internal/proc"
)

type contractOptions struct {
	io   *IO
	argv []string
}

// newContractCmd is `agenthooks contract BINARY [ARG]...`: a Cursor hook
// that runs a binary written for the cross-agent hook contract
// (docs/dialects.md).
func newContractCmd(s *IO) *cobra.Command {
	o := &contractOptions{io: s}
	cmd := &cobra.Command{
		Use:   "contract [--] BINARY [ARG]...",
		Short: "Run a hook binary written for the cross-agent contract as a Cursor hook",
		Long: `Contract is a Cursor hook: it reads the step's payload on stdin, gives BINARY the
contract's stdin ({"tool_name": "Shell", "tool_input": {"command": …}}; Read {path},
Write {path, contents}, an edit as Edit, lifecycle steps as SessionStart,
beforeSubmitPrompt, Stop, PreCompact, SessionEnd), and prints the binary's answer
in Cursor's shape:

  exit 2, or {"decision":"deny","reason":…}   deny (a blocked prompt on beforeSubmitPrompt)
  {"decision":"allow"}                       an explicit allow on a gate
  {"reason":…} on stop                       the follow-up message
  {"message":…}                              sessionStart context, preCompact message
  exit 0 with anything else                  no opinion (the contract: parse errors allow)
  any other exit code                        the same exit code: the hook failed, and
                                             its failClosed decides

So the same binaries run from hooks.json unchanged. The binary's stderr is passed on.
Agents that call contract binaries themselves use run --from contract instead.`,
		Example: `  echo '{"hook_event_name":"beforeShellExecution","command":"git push"}' | agenthooks contract sh -c 'cat >/dev/null; echo "{\"decision\":\"deny\",\"reason\":\"no pushing\"}"'`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErr("contract takes the BINARY to run, and its arguments")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.argv = args
			return o.run(cmd.Context())
		},
	}
	// Everything after BINARY is the binary's own: --flags included.
	cmd.Flags().SetInterspersed(false)
	return cmd
}

func (o *contractOptions) run(ctx context.Context) error {
	payload, err := io.ReadAll(o.io.In)
	if err != nil {
		return fmt.Errorf("contract: read stdin: %w", err)
	}
	step, stdin, err := contract.HookInput(payload)
	if err != nil {
		return dataErr("contract: %v", err)
	}
	// Started as the hooks runner starts a hook: in a process group of its
	// own (a Job object on Windows), stopped whole when ctx ends (a signal
	// to agenthooks), with its output bounded. The group is not contract's
	// own, so the engine's teardown of a timed-out contract hook (SIGTERM,
	// then SIGKILL after proc.DefaultGrace) reaches the binary only through
	// contract: its grace is half the engine's, so contract has killed the
	// binary's group before the engine's SIGKILL ends contract.
	res := proc.Run(ctx, proc.Spec{Argv: o.argv, Stdin: stdin, Grace: proc.DefaultGrace / 2})
	if len(res.Stderr) > 0 {
		// The binary's stderr is passed on, whatever happened.
		_, _ = o.io.Err.Write(res.Stderr)
	}
	if err := contractFailure(o.argv[0], res); err != nil {
		// Not started, stopped or killed: a hook failure (exit 1),
		// whatever the binary's own convention.
		return err
	}
	out, msg, exit := contract.HookAnswer(step, res.ExitCode, res.Stdout, res.Stderr)
	if out != nil {
		if _, err := o.io.Out.Write(out); err != nil {
			return err
		}
	}
	if exit != 0 {
		if msg != "" && len(res.Stderr) == 0 {
			fmt.Fprintln(o.io.Err, msg)
		}
		return silentExit(exit)
	}
	return nil
}

// contractFailure says why the binary gave no exit status to read, or nil
// when it exited.
func contractFailure(name string, res proc.Result) error {
	switch {
	case res.StartErr != nil:
		return fmt.Errorf("contract: %s: %w", name, res.StartErr)
	case res.Overflow != "":
		return fmt.Errorf("contract: %s: stopped: it wrote more to %s than agenthooks keeps", name, res.Overflow)
	case res.Canceled:
		return fmt.Errorf("contract: %s: stopped: agenthooks was interrupted", name)
	case res.ExitCode < 0:
		return fmt.Errorf("contract: %s: died of signal %s", name, res.Signal)
	}
	return nil
}
