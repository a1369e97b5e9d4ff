package host_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/host"
)

// A Go program that runs terminal commands for an agent gates each one
// as `agenthooks exec` does: the plan says whether (and how) it runs, the
// program runs it, and the report gives the after-hooks its result.
func ExampleHost_PlanExec() {
	ctx := context.Background()
	home := exampleHome() // holds ~/.cursor/hooks.json: a hook that denies git push
	defer os.RemoveAll(home)
	h := host.Open(ctx, host.Options{
		Memory: true,
		Locations: func(roots []string) config.Locations {
			return config.Locations{Home: home, EnterpriseFile: filepath.Join(home, "no-enterprise.json"), WorkspaceRoots: roots}
		},
	})
	defer h.Close(ctx)

	for _, command := range []string{"git push origin main", "ls"} {
		p, err := h.PlanExec(ctx, host.ExecRequest{Command: command, Roots: []string{home}, Cwd: home, Ask: host.AskDeny})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: run %v\n", command, p.Run)
		for _, m := range p.Messages {
			fmt.Println("  " + m)
		}
		report := host.ExecReport{Call: *p.Call, Refused: p.Reason}
		if p.Run {
			// The program runs p.Argv in p.Dir here, and reports how it ended.
			report = host.ExecReport{Call: *p.Call, Result: &host.ExecResult{Code: 0, Output: "README.md\n", DurationMS: 3}}
		}
		fmt.Printf("%q\n", h.ReportExec(ctx, report, nil))
	}
	// Output:
	// git push origin main: run false
	//   Command execution was blocked by a hook: pushing is for CI
	//   The terminal command was rejected by a hook. pushing is for CI Do not attempt to work around this restriction using alternative methods or commands.
	// ""
	// ls: run true
	// ""
}
