package gitpush_test

import (
	"fmt"

	"github.com/agenthooks/agenthooks/policy/gitpush"
	"github.com/agenthooks/agenthooks/policy/shellscan"
)

func Example() {
	for _, line := range []string{
		"git -c alias.ship='push -f' ship origin HEAD:refs/heads/main",
		"git status",
		"git $(cat subcommand.txt) origin",
	} {
		for _, c := range shellscan.Commands(line) {
			p := gitpush.Analyze(c)
			if c.Name != "git" {
				continue
			}
			var dsts []string
			for _, r := range p.Refspecs {
				dsts = append(dsts, r.Dst)
			}
			fmt.Printf("%s: push %v, dynamic %v, remote %q, destinations %q, force %v\n",
				line, p.Push, p.Dynamic, p.Remote, dsts, p.Force)
		}
	}
	// Output:
	// git -c alias.ship='push -f' ship origin HEAD:refs/heads/main: push true, dynamic false, remote "origin", destinations ["main"], force true
	// git status: push false, dynamic false, remote "", destinations [], force false
	// git $(cat subcommand.txt) origin: push true, dynamic true, remote "", destinations [], force false
}
