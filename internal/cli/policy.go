package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
	"github.com/agenthooks/agenthooks/policy"
)

// policies are the compiled policy files, kept while the process lives.
var policies policy.Cache

type policyOptions struct {
	io   *IO
	file string
	step string
}

// newPolicyCmd is `agenthooks policy FILE` (a hook: payload on stdin,
// answer on stdout) with the subcommands check and test. A subcommand name
// wins over a file of the same name; `./check` names the file.
func newPolicyCmd(s *IO) *cobra.Command {
	o := &policyOptions{io: s}
	cmd := &cobra.Command{
		Use:   "policy FILE",
		Short: "Evaluate a policy file as a hook; check it; test it against cases",
		Long: `policy FILE is a hook: it reads a step's payload on stdin (the step comes from its
hook_event_name), evaluates the policy's rules and prints the answer in Cursor's
shape: {"permission":"deny","user_message":…,"agent_message":…}, {"continue":false,…}
for beforeSubmitPrompt, {} when no rule matched. It exits 0 whenever it decided; a
policy that does not compile, or a rule that fails to evaluate, prints the problem
on stderr and exits 1 (a hook failure: fail-open unless the hook is failClosed).

Put it in any hooks.json: Cursor runs it as a process; agenthooks recognises the
command and evaluates the policy in process, with the same answer.

  policy check FILE...              compile, print every problem as file:line:col
  policy test FILE --cases FILE     run the cases file's expectations

A file named check or test is written ./check or ./test. The policy language is
described in ` + docsURL + `policies.md.`,
		Example: `  echo 'rules: [{name: no-push, steps: [beforeShellExecution], when: input.command.startsWith("git push"), decision: deny}]' > git.yaml && echo '{"hook_event_name":"beforeShellExecution","command":"git push"}' | agenthooks policy git.yaml`,
		Args:    func(_ *cobra.Command, args []string) error { return o.checkArgs(args) },
		RunE:    func(cmd *cobra.Command, _ []string) error { return o.run(cmd.Context()) },
	}
	cmd.Flags().StringVar(&o.step, "step", "", "the step, when the payload has no hook_event_name")
	cmd.AddCommand(newPolicyCheckCmd(s), newPolicyTestCmd(s))
	return cmd
}

// checkArgs checks policy's FILE.
func (o *policyOptions) checkArgs(args []string) error {
	switch {
	case len(args) == 0:
		return usageErr("policy takes a FILE (or: policy check FILE..., policy test FILE --cases FILE)")
	case len(args) > 1:
		hint := ""
		if sub, ok := nearSubcommand(args[0]); ok {
			hint = fmt.Sprintf(" (did you mean policy %s?)", sub)
		}
		return usageErr("policy takes exactly one FILE, got %d arguments%s", len(args), hint)
	}
	o.file = args[0]
	return nil
}

// nearSubcommand suggests check or test for a mistyped first argument
// ("chek", "tests").
func nearSubcommand(s string) (string, bool) {
	for _, sub := range []string{"check", "test"} {
		if s != sub && len(s) >= 3 && strings.HasPrefix(sub, s[:3]) {
			return sub, true
		}
	}
	return "", false
}

func (o *policyOptions) run(ctx context.Context) error {

	payload, err := readPayload(o.io.In)
	if err != nil {
		return err
	}
	// Only hook_event_name is read here, without a depth limit; the
	// policy decodes what its conditions need.
	fields, err := jsonscan.Object(payload)
	if len(bytes.TrimSpace(payload)) > 0 && (err != nil || fields == nil) {
		return dataErr("payload on stdin is not a JSON object: %v", err)
	}
	step := event.Step(o.step)
	if name, ok := jsonscan.String(fields["hook_event_name"]); ok && name != "" {
		step = event.Step(name)
	}
	if step == "" {
		return usageErr("the payload has no hook_event_name: give the step with --step")
	}
	file, err := o.io.abs(o.file)
	if err != nil {
		return usageErr("policy file %q: %v", o.file, err)
	}
	// Compiled once per content: the resident engine decides every later
	// step without compiling.
	p, err := policies.Get(file)
	if err != nil {
		printProblems(o.io, err)
		return silentExit(ExitProblems)
	}
	out := []byte("{}")
	if step.Known() {
		v, err := p.DecideJSON(ctx, step, payload, policy.CallerEnv(o.io.env))
		if err != nil {
			return err
		}
		out = v.JSON(step)
	}
	_, err = fmt.Fprintf(o.io.Out, "%s\n", out)
	return err
}

// printProblems prints a policy's problems, one per line.
func printProblems(s *IO, err error) {
	var errs policy.Errors
	if errors.As(err, &errs) {
		for _, p := range errs {
			fmt.Fprintln(s.Err, p.Error())
		}
		return
	}
	fmt.Fprintln(s.Err, "agenthooks:", err)
}
