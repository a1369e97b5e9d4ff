package trust

import (
	"path/filepath"
	"runtime"

	"github.com/agenthooks/agenthooks/internal/settings"
)

// DefaultDir is the config directory holding the store, in the
// environment getenv reads:
// $AGENTHOOKS_CONFIG_DIR, else $XDG_CONFIG_HOME/agenthooks, else
// ~/.config/agenthooks on Linux and the OS's config directory elsewhere
// (~/Library/Application Support/agenthooks, %AppData%\agenthooks). It is
// "" when none can be found; Open then says to set AGENTHOOKS_CONFIG_DIR.
// It never falls back to a shared directory such as /tmp, where another
// user could plant trust.
func DefaultDir(getenv func(string) string) string {
	if d := getenv(settings.ConfigDir); d != "" {
		return d
	}
	// XDG says to ignore a relative XDG_CONFIG_HOME.
	if d := getenv(settings.XDGConfigHome); filepath.IsAbs(d) {
		return filepath.Join(d, "agenthooks")
	}
	if runtime.GOOS == "linux" {
		if home, err := settings.Home(getenv); err == nil {
			return filepath.Join(home, ".config", "agenthooks")
		}
		return ""
	}
	if d, err := settings.UserConfigDir(getenv); err == nil {
		return filepath.Join(d, "agenthooks")
	}
	return ""
}

// resolved is a path in its two forms: key, absolute with symlinks
// resolved as far as the path exists, identifies it in the store (so /tmp/x
// and /private/tmp/x on macOS are one workspace); shown, absolute and
// clean, is what the user typed, for messages.
type resolved struct{ key, shown string }

// resolve makes p absolute (relative to base if base is not "", else to
// the working directory) and resolves its symlinks.
func resolve(p, base string) resolved {
	if base != "" && !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	shown, err := filepath.Abs(p)
	if err != nil {
		shown = filepath.Clean(p)
	}
	return resolved{key: evalExisting(shown), shown: shown}
}

// evalExisting resolves symlinks in the longest part of p that exists, so
// that a file pinned before it was created and checked after gets the
// same key.
func evalExisting(p string) string {
	rest := ""
	for dir := p; ; {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return p
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}
