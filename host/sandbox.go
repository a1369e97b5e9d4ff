package host

import "github.com/agenthooks/agenthooks/sandbox"

// Sandbox reads the sandbox files for a set of workspace roots, from the
// same locations and under the same trust store as their hooks: a
// project's sandbox.json counts only as its hooks.json would. It is read
// anew for each command: a few small files, and an edit must apply to the
// next command.
func (h *Host) Sandbox(roots []string) *sandbox.Loaded {
	h.mu.Lock()
	ts := h.trust
	h.mu.Unlock()
	return sandbox.Load(h.opts.Locations(roots), ts)
}
