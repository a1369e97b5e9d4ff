package gitpush

import (
	"context"
)

// Basis is what an answer of AnalyzeLine rests on besides its line: the
// directory the line starts in, and the repository configuration's say
// on push mappings (remote.<name>.push, remote.<name>.mirror) at each
// location a push without a destination consulted. A caller keeping the
// answer with the line asks Holds before each reuse: the configuration
// may have changed since, by an earlier command or by hand.
type Basis struct {
	// other is set when the answer rests on more than Holds checks (the
	// configured aliases, the programs on disk): it is computed again.
	other bool
	// dirUsed is set when the answer depends on the line's directory,
	// which was dir.
	dirUsed bool
	dir     string
	// checks are the locations consulted: the first kept apart, since a
	// line usually pushes once.
	first  pushCheck
	n      int
	checks []pushCheck
}

// pushCheck is one location's answer to repoPushConfig.
type pushCheck struct {
	loc        gitLocation
	configured bool
}

// Holds reports whether an answer with this basis is still the answer
// for its line starting in dir with env: the same directory, and every
// location consulted still configures push mappings as it did. It reads
// the configuration as the analysis does (cached while its files are
// unchanged); ctx is called only if git must run.
func (b *Basis) Holds(ctx func() context.Context, env []string, dir string) bool {
	if b == nil || b.other || b.dirUsed && dir != b.dir {
		return false
	}
	if b.n > 0 && repoPushConfig(ctx, env, b.first.loc, nil) != b.first.configured {
		return false
	}
	for _, c := range b.checks {
		if repoPushConfig(ctx, env, c.loc, nil) != c.configured {
			return false
		}
	}
	return true
}

// note adds a location's answer.
func (b *Basis) note(c pushCheck) {
	if b.n == 0 {
		b.first = c
	} else {
		b.checks = append(b.checks, c)
	}
	b.n++
}

// repoPushConfig reports whether the repository's configuration for a
// command run at loc may map a push's destination: true when it cannot
// be read, false when loc's directory does not exist (git fails there).
// r, when not nil, looks the configuration up (read once per analysis).
func repoPushConfig(ctx func() context.Context, env []string, loc gitLocation, r *gitResolver) bool {
	if !dirMayExist(loc.dir) {
		return false
	}
	var e *aliasEntry
	var ok bool
	if r != nil {
		e, ok = r.configured(loc)
	} else {
		e, ok = configured(ctx, env, loc)
	}
	return !ok || e.pushConfig
}
