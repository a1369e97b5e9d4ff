package policy_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/policy"
)

// examplePolicy denies pushes to the protected branches and asks before
// any rm -rf. docs/policies.md describes the format.
const examplePolicy = `version: 1
vars:
  protected: [main, master]
rules:
  - name: push-to-protected-branch
    steps: [beforeShellExecution, preToolUse]
    when: |
      commands(command).exists(c, cel.bind(p, gitPush(c),
        p.push && p.refspecs.exists(r, r.dst in vars.protected)))
    decision: deny
    user_message: Pushing to main is blocked.
    agent_message: Push a feature branch and open a pull request.
  - name: recursive-delete
    steps: beforeShellExecution
    when: commands(command).exists(c, c.name == "rm" && "-rf" in c.args)
    decision: ask
    user_message: Delete recursively?
`

// A host (or `agenthooks policy FILE`) loads a policy once and decides
// each step's payload against it. No matching rule is no opinion, which
// the answer spells {}.
func ExamplePolicy_DecideJSON() {
	dir, err := os.MkdirTemp("", "agenthooks-policy-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "git.yaml")
	if err := os.WriteFile(file, []byte(examplePolicy), 0o644); err != nil {
		fmt.Println(err)
		return
	}

	p, err := policy.Load(file)
	if err != nil {
		fmt.Println(err) // every problem, as file:line:col
		return
	}
	ctx := context.Background()
	for _, payload := range []string{
		`{"command":"git push origin main","cwd":"/src/app"}`,
		`{"command":"cd build && rm -rf out","cwd":"/src/app"}`,
		`{"command":"ls -la","cwd":"/src/app"}`,
	} {
		v, err := p.DecideJSON(ctx, event.BeforeShellExecution, []byte(payload))
		if err != nil {
			fmt.Println("decide:", err) // a hook failure: failClosed decides
			continue
		}
		rule := "(none)"
		if v.Rule != nil {
			rule = v.Rule.Name
		}
		fmt.Printf("decision=%q rule=%s\n  %s\n", v.Decision, rule, v.JSON(event.BeforeShellExecution))
	}
	// Output:
	// decision="deny" rule=push-to-protected-branch
	//   {"permission":"deny","user_message":"Pushing to main is blocked.","agent_message":"Push a feature branch and open a pull request."}
	// decision="ask" rule=recursive-delete
	//   {"permission":"ask","user_message":"Delete recursively?"}
	// decision="" rule=(none)
	//   {}
}

// A policy that does not compile is refused whole, with every problem
// located in the file.
func ExampleCompile() {
	_, err := policy.Compile("bad.yaml", []byte(`rules:
  - name: typo
    steps: beforeShellExecuton
    when: command.startWith("git")
    decision: block
`))
	var problems policy.Errors
	if !errors.As(err, &problems) {
		fmt.Println("compiled:", err)
		return
	}
	for _, pr := range problems {
		fmt.Printf("%d:%d %s: %s\n", pr.Line, pr.Col, pr.Field, pr.Message)
	}
	// Output:
	// 3:12 rules[0].steps[0]: unknown step "beforeShellExecuton" (did you mean "beforeShellExecution"?)
	// 4:28 rules[0].when: undeclared reference to 'startWith' (did you mean 'startsWith'?)
	// 5:15 rules[0].decision: unknown decision "block"
}
