package state

import (
	"path/filepath"
	"runtime"

	"github.com/agenthooks/agenthooks/internal/settings"
)

// DefaultDir is the directory holding state.db, in the environment
// getenv reads: $AGENTHOOKS_STATE_DIR,
// else $XDG_STATE_HOME/agenthooks, else the OS's place for per-user
// application state: ~/.local/state/agenthooks on Linux and the other
// Unixes, ~/Library/Application Support/agenthooks/state on macOS and
// %LocalAppData%\agenthooks\state on Windows. Caches (~/Library/Caches,
// ~/.cache) are avoided because the OS may purge them, and on Windows the
// local rather than the roaming profile is used because a live SQLite
// database must not be synchronised between machines. The "state"
// subfolder keeps the database apart from the config (trust.json) that
// shares the agenthooks folder on those systems.
//
// DefaultDir is "" when no home directory can be found; Open then says to
// set AGENTHOOKS_STATE_DIR. It never falls back to a shared directory such
// as /tmp, where another user could read the log or plant sessions.
func DefaultDir(getenv func(string) string) string {
	if d := getenv(settings.StateDir); d != "" {
		return d
	}
	// XDG says to ignore a relative XDG_STATE_HOME.
	if d := getenv(settings.XDGStateHome); filepath.IsAbs(d) {
		return filepath.Join(d, "agenthooks")
	}
	switch runtime.GOOS {
	case "darwin", "ios":
		if d, err := settings.UserConfigDir(getenv); err == nil { // ~/Library/Application Support
			return filepath.Join(d, "agenthooks", "state")
		}
		return ""
	case "windows":
		if d, err := settings.UserCacheDir(getenv); err == nil { // %LocalAppData%
			return filepath.Join(d, "agenthooks", "state")
		}
		return ""
	}
	if home, err := settings.Home(getenv); err == nil {
		return filepath.Join(home, ".local", "state", "agenthooks")
	}
	return ""
}
