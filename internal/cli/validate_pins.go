package cli

import (
	"fmt"

	"github.com/agenthooks/agenthooks/config"
)

// unsurePins warns of each project hook that may run a file trust cannot
// name (a script that sources a path computed at run time): the folder
// is pinned in its place, so an edit there stops the hook, but the file
// itself is not known.
func unsurePins(hooks []*config.Hook) []config.Problem {
	var out []config.Problem
	for _, h := range hooks {
		if h.Type != config.TypeCommand || h.Root == "" {
			continue
		}
		_, notes := config.RunFileReport(h.Command, h.Dir, h.Root, h.ProjectDirVars())
		for _, n := range notes {
			out = append(out, config.Problem{File: h.File, Severity: config.Warning,
				Message: fmt.Sprintf("%s[%d]: runs a file trust cannot name: %s", h.Step, h.Index, n),
				Fix:     "name the file literally (source .cursor/hooks/lib.sh) so that it is pinned by itself"})
		}
	}
	return out
}
