package settings

import (
	"errors"
	"path/filepath"
	"runtime"
)

// The per-user folders as the os package finds them (os.UserHomeDir,
// os.UserConfigDir, os.UserCacheDir), but in the environment getenv
// reads: a resident engine finds a client's folders in the client's
// settings, not its own.

// Home is the user's home folder: $USERPROFILE on Windows, $home on
// Plan 9, $HOME elsewhere.
func Home(getenv func(string) string) (string, error) {
	name := "HOME"
	switch runtime.GOOS {
	case "windows":
		name = "USERPROFILE"
	case "plan9":
		name = "home"
	}
	if v := getenv(name); v != "" {
		return v, nil
	}
	return "", errors.New("$" + name + " is not defined")
}

// UserConfigDir is the folder of per-user configuration: %AppData% on
// Windows, ~/Library/Application Support on macOS, $XDG_CONFIG_HOME or
// ~/.config elsewhere.
func UserConfigDir(getenv func(string) string) (string, error) {
	switch runtime.GOOS {
	case "windows":
		if d := getenv("APPDATA"); d != "" {
			return d, nil
		}
		return "", errors.New("%AppData% is not defined")
	case "darwin", "ios":
		home, err := Home(getenv)
		if err != nil {
			return "", err
		}
		return filepath.Join(home, "Library", "Application Support"), nil
	}
	if d := getenv(XDGConfigHome); filepath.IsAbs(d) {
		return d, nil
	}
	home, err := Home(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".config"), nil
}

// UserCacheDir is the folder of per-user caches: %LocalAppData% on
// Windows, ~/Library/Caches on macOS, $XDG_CACHE_HOME or ~/.cache
// elsewhere.
func UserCacheDir(getenv func(string) string) (string, error) {
	switch runtime.GOOS {
	case "windows":
		if d := getenv("LOCALAPPDATA"); d != "" {
			return d, nil
		}
		return "", errors.New("%LocalAppData% is not defined")
	case "darwin", "ios":
		home, err := Home(getenv)
		if err != nil {
			return "", err
		}
		return filepath.Join(home, "Library", "Caches"), nil
	}
	if d := getenv("XDG_CACHE_HOME"); filepath.IsAbs(d) {
		return d, nil
	}
	home, err := Home(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".cache"), nil
}
