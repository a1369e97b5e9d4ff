package trust

import (
	"encoding/hex"
	"slices"
	"strings"
)

// ChangeKind says how a file differs from its pin.
type ChangeKind string

// The kinds of change Diff reports.
const (
	Added   ChangeKind = "added"   // not pinned, present now
	Changed ChangeKind = "changed" // pinned, with another content now
	Removed ChangeKind = "removed" // pinned, and gone (or no hook names it any more)
)

// Change is one file whose trust would change.
type Change struct {
	// Path is the file as given to Diff, or as pinned (absolute, with
	// symlinks resolved) for a removed one.
	Path string
	Kind ChangeKind
	// Old and New are the SHA-256 (hex) pinned and now; "" where there is
	// none (an added file has no Old, a removed one no New).
	Old, New string
}

// Diff compares sums (path → SHA-256 now, as config.ProjectPins returns;
// a relative path is relative to root) with the pins of workspace root,
// so the user sees what changed since they last reviewed it before
// trusting it again. It returns the changes sorted by path; for a
// workspace that is not trusted, every file is added.
func (s *Store) Diff(root string, sums map[string][32]byte) []Change {
	r := resolve(root, "")
	s.mu.RLock()
	var pins map[string]string
	if w := s.state.Workspaces[r.key]; w != nil {
		pins = w.Files
	}
	s.mu.RUnlock()

	var out []Change
	seen := map[string]bool{}
	paths := make([]string, 0, len(sums))
	for path := range sums {
		paths = append(paths, path)
	}
	slices.Sort(paths) // so of two names of one file, the same one is shown
	for _, path := range paths {
		sum := sums[path]
		f := resolve(path, r.shown)
		if seen[f.key] {
			continue // two names (a symlink and its target) of one file
		}
		seen[f.key] = true
		now := hex.EncodeToString(sum[:])
		switch old, ok := pins[f.key]; {
		case !ok:
			out = append(out, Change{Path: f.shown, Kind: Added, New: now})
		case old != now:
			out = append(out, Change{Path: f.shown, Kind: Changed, Old: old, New: now})
		}
	}
	for key, old := range pins {
		if !seen[key] {
			out = append(out, Change{Path: key, Kind: Removed, Old: old})
		}
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return out
}
