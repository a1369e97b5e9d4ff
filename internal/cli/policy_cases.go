package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/policy"
)

// policyTestOptions are the flags of `policy test`, which checks a
// policy against a cases file of expected decisions.
type policyTestOptions struct {
	io      *IO
	cases   string
	verbose bool
}

func newPolicyTestCmd(s *IO) *cobra.Command {
	o := &policyTestOptions{io: s}
	cmd := &cobra.Command{
		Use:   "test FILE --cases CASES",
		Short: "Check a policy against a cases file of expected decisions",
		Long: `Test evaluates the policy for every case of the cases file, a YAML list of
{name, step, input, expect} (expect: deny, ask, allow or none; optional: command as a
shorthand for the shell command, rule for the rule expected to decide), prints each
case that does not get its expected decision, and exits 1 if any fails.`,
		Example: `  agenthooks policy test git.yaml --cases git.cases.yaml
  agenthooks policy test git.yaml --cases git.cases.yaml -v`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr("policy test takes one policy FILE and --cases CASES")
			}
			if o.cases == "" {
				return usageErr("policy test needs --cases CASES (a YAML list of name, step, input, expect)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd.Context(), args[0]) },
	}
	cmd.Flags().StringVar(&o.cases, "cases", "", "the cases file (YAML)")
	cmd.Flags().BoolVarP(&o.verbose, "verbose", "v", false, "print every case, not only failures")
	return cmd
}

func (o *policyTestOptions) run(ctx context.Context, file string) error {
	p, err := policy.Load(file)
	if err != nil {
		printProblems(o.io, err)
		return silentExit(ExitProblems)
	}
	cases, err := policy.LoadCases(o.cases)
	if err != nil {
		printProblems(o.io, err)
		return silentExit(ExitProblems)
	}
	failed := 0
	for _, r := range p.RunCases(ctx, cases) {
		if r.Pass() {
			if o.verbose {
				fmt.Fprintf(o.io.Out, "ok   %s: %s\n", r.Name, verdictText(r.Got))
			}
			continue
		}
		failed++
		got := verdictText(r.Got)
		if r.Err != nil {
			got = "error: " + r.Err.Error()
		}
		want := permissionText(r.Expect)
		if r.Rule != "" {
			want += " by rule " + r.Rule
		}
		fmt.Fprintf(o.io.Out, "FAIL %s (%s:%d): want %s, got %s\n", r.Name, o.cases, r.Line, want, got)
	}
	fmt.Fprintf(o.io.Out, "%d cases, %d passed, %d failed\n", len(cases), len(cases)-failed, failed)
	if failed > 0 {
		return silentExit(ExitProblems)
	}
	return nil
}

// verdictText describes a verdict: the decision and the rule that gave it.
func verdictText(v policy.Verdict) string {
	if v.Rule == nil {
		return "none"
	}
	return fmt.Sprintf("%s by rule %s", v.Decision, v.Rule.Name)
}

func permissionText(p event.Permission) string {
	if p == event.NoOpinion {
		return "none"
	}
	return string(p)
}
