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
	return userDir(getenv, "APPDATA", "Application Support", XDGConfigHome, ".config")
}

// UserCacheDir is the folder of per-user caches: %LocalAppData% on
// Windows, ~/Library/Caches on macOS, $XDG_CACHE_HOME or ~/.cache
// elsewhere.
func UserCacheDir(getenv func(string) string) (string, error) {
	return userDir(getenv, "LOCALAPPDATA", "Caches", "XDG_CACHE_HOME", ".cache")
}

// userDir is a per-user folder: the Windows variable winVar, the folder
// library under ~/Library on macOS, else the absolute $xdgVar or the
// folder dot in the home folder.
func userDir(getenv func(string) string, winVar, library, xdgVar, dot string) (string, error) {
	switch runtime.GOOS {
	case "windows":
		if d := getenv(winVar); d != "" {
			return d, nil
		}
		return "", errors.New("%" + winVar + "% is not defined")
	case "darwin", "ios":
		home, err := Home(getenv)
		if err != nil {
			return "", err
		}
		return filepath.Join(home, "Library", library), nil
	}
	if d := getenv(xdgVar); filepath.IsAbs(d) {
		return d, nil
	}
	home, err := Home(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(home, dot), nil
}
