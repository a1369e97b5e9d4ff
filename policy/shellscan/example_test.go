package shellscan_test

import (
	"fmt"

	"github.com/agenthooks/agenthooks/policy/shellscan"
)

func Example() {
	line := `B=main; cd repo && sudo -u bob bash -c "git push origin $B" | tee log; $(echo rm) -rf /`
	for _, c := range shellscan.Commands(line) {
		if c.Dynamic {
			fmt.Printf("dynamic: %s\n", c.Path)
			continue
		}
		fmt.Printf("%s %q via %q in %s\n", c.Name, c.Args, c.Via, c.Cwd)
	}
	// Output:
	// cd ["repo"] via [] in .
	// sudo ["-u" "bob" "bash" "-c" "git push origin main"] via [] in repo
	// bash ["-c" "git push origin main"] via ["sudo"] in repo
	// git ["push" "origin" "main"] via ["sudo" "bash -c"] in repo
	// tee ["log"] via [] in repo
	// echo ["rm"] via ["$()"] in repo
	// dynamic: $(echo rm)
}
