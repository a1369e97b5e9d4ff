package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/policy"
)

func newPolicyCheckCmd(s *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "check FILE...",
		Short: "Compile policy files and print every problem as file:line:col",
		Long: `Check compiles each policy file (YAML structure, step names, decisions, and every
when condition in CEL) and prints each problem as file:line:col: field: what is wrong
(fix: …); a CEL error points at the character of the condition where it is. It exits 1
when a file has a problem, 0 otherwise. To check a policy file named check, write ./check.`,
		Example: `  agenthooks policy check .cursor/policies/git.yaml
  agenthooks policy check examples/policies/git.yaml examples/policies/rm.yaml`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErr("policy check needs at least one FILE (to evaluate a policy file named check, write: agenthooks policy ./check)")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			failed := false
			for _, f := range args {
				p, err := policy.Load(f)
				if err != nil {
					printProblems(s, err)
					failed = true
					continue
				}
				rules := "rules"
				if len(p.Rules) == 1 {
					rules = "rule"
				}
				fmt.Fprintf(s.Out, "%s: ok, %d %s\n", f, len(p.Rules), rules)
			}
			if failed {
				return silentExit(ExitProblems)
			}
			return nil
		},
	}
}
