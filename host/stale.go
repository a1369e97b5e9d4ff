package host

import (
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/runner"
)

// missedProgram reports whether a hook of the decisions failed because
// its program was not there: not found by the shell (exit 127) or not
// started at all. With the configuration changed meanwhile, that is a
// hook run against files swapped under it (a team sync replaces the whole
// hooks folder between the step's freshness check and the spawn), not a
// broken hook: the step is run again on the new configuration.
func missedProgram(ds ...*engine.Decision) bool {
	for _, d := range ds {
		if d == nil {
			continue
		}
		for _, o := range d.Hooks {
			r := o.Result
			if r.Failure == runner.SpawnError || r.Failure == runner.ExitStatus && r.ExitCode == 127 {
				return true
			}
		}
	}
	return false
}

// stale reports whether the configuration of an engine Engine returned
// for roots and skip changed since it was loaded.
func (h *Host) stale(roots []string, skip config.Skip) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.engines[engineKey(roots, skip)]
	return !ok || !c.in.current()
}
