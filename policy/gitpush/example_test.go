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
			fmt.Printf("%s: push %v, dynamic %v, remote %q, refspecs %+v, force %v\n",
				line, p.Push, p.Dynamic, p.Remote, p.Refspecs, p.Force)
		}
	}
	// Output:
	// git -c alias.ship='push -f' ship origin HEAD:refs/heads/main: push true, dynamic false, remote "origin", refspecs [{Src:HEAD Dst:main Force:false}], force true
	// git status: push false, dynamic false, remote "", refspecs [], force false
	// git $(cat subcommand.txt) origin: push true, dynamic true, remote "", refspecs [], force false
}
