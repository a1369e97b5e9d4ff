package shellscan

import (
	"os"
	"path/filepath"
	"strings"
)

// JoinDir resolves a command's directory (Command.Cwd, relative to the
// line's start) against the line's absolute directory: "" when either is
// unknown. A ~ is this user's home directory.
func JoinDir(base, cwd string) string {
	switch {
	case cwd == "":
		return ""
	case cwd == "~" || strings.HasPrefix(cwd, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		return filepath.Join(home, filepath.FromSlash(cwd[1:]))
	case strings.HasPrefix(cwd, "~"):
		return "" // another user's home
	case filepath.IsAbs(cwd) || strings.HasPrefix(cwd, "/"):
		return filepath.Clean(filepath.FromSlash(cwd))
	case base == "":
		return ""
	}
	return filepath.Join(base, filepath.FromSlash(cwd))
}
