package cli

import (
	"fmt"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/trust"
)

// unsurePins reports each file a project hook may run that trust cannot
// pin by itself (config.RunFileReport's notes). Where the note says what
// is pinned in its place (the folder of a script whose loading cannot be
// told), an edit there still stops the hook: a warning. Where a file the
// hook may run is not pinned at all (a folder too big to pin whole, an
// environment installed from the workspace), an edit there would not stop
// it: an error in a workspace that is trusted (or is about to be, in
// trust's preview), so validate exits 1 and trust refuses until it is
// fixed or forced; a warning in one never trusted, as every other finding
// about pins is there.
func unsurePins(hooks []*config.Hook, trusted func(root string) bool) []config.Problem {
	var out []config.Problem
	for _, h := range hooks {
		if h.Type != config.TypeCommand || h.Root == "" || !h.Source.ProjectLevel() {
			continue
		}
		_, notes := config.RunFileReport(h.Command, h.Dir, h.Root, h.ProjectDirVars())
		for _, n := range notes {
			p := config.Problem{File: h.File, Severity: config.Warning,
				Message: fmt.Sprintf("%s[%d]: runs a file trust cannot name: %s", h.Step, h.Index, n.Message),
				Fix:     "load files by literal relative paths (require('./lib'), source .cursor/hooks/lib.sh) so that each is pinned by itself"}
			if n.Unpinned {
				if trusted(h.Root) {
					p.Severity = config.Error
				}
				p.Message = fmt.Sprintf("%s[%d]: may run files that are not pinned: %s", h.Step, h.Index, n.Message)
				p.Fix = "keep what the hook runs in a small folder of its own (a Python script's folder is on sys.path: run it by its path, python3 .cursor/hooks/guard.py, not with -m from the workspace root) and use an interpreter outside the workspace, or trust with --force to accept it"
			}
			out = append(out, p)
		}
	}
	return out
}

// trustedRoots reports whether a workspace is trusted, from the trust
// store getenv names; a store that cannot be read trusts none.
func trustedRoots(getenv func(string) string) func(root string) bool {
	store, err := trust.Open(trust.DefaultDir(getenv))
	if err != nil {
		return func(string) bool { return false }
	}
	return store.Trusted
}
