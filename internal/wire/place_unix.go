//go:build unix

package wire

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Supported reports whether this system has a resident engine.
const Supported = true

// fileID is the device and inode: a file replaced by rename has another.
func fileID(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	return ""
}

// Dir returns the folder that holds the user's engine sockets, creating
// it: $XDG_RUNTIME_DIR/agenthooks when the runtime folder is the user's,
// else agenthooks/run in the user's state folder ($XDG_STATE_HOME, else
// ~/.local/state). Never the temporary folder: the sandbox lets commands
// write there, and a command that could remove the socket, plant a link
// for its log or hold its lock could stand in for the engine or keep it
// away (docs/sandbox.md). It refuses a folder that is not a real
// directory, is not the user's own, or that anyone else may enter:
// another user who could plant a socket there could answer for the
// engine.
func Dir(getenv func(string) string) (string, error) {
	uid := os.Getuid()
	if rt := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(rt) {
		if err := private(rt, uid, false); err == nil {
			return ensure(filepath.Join(rt, "agenthooks"), uid)
		}
	}
	base := getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(base) {
		home := getenv("HOME")
		if !filepath.IsAbs(home) {
			return "", errors.New("engine folder: neither XDG_RUNTIME_DIR nor HOME is set")
		}
		base = filepath.Join(home, ".local", "state")
	}
	dir := filepath.Join(base, "agenthooks", "run")
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return "", fmt.Errorf("engine folder %s: %w", dir, err)
	}
	return ensure(dir, uid)
}

// ensure creates dir (mode 0700) if it is missing and checks it.
func ensure(dir string, uid int) (string, error) {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("engine folder %s: %w", dir, err)
	}
	if err := private(dir, uid, true); err != nil {
		return "", err
	}
	return dir, nil
}

// private checks that path is a directory (not a link) owned by uid and,
// when strict, closed to everyone else.
func private(path string, uid int, strict bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("engine folder %s: %w", path, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("engine folder %s is not a directory", path)
	case !ok || int(st.Uid) != uid:
		return fmt.Errorf("engine folder %s belongs to another user", path)
	case strict && fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("engine folder %s may be entered by other users (mode %v)", path, fi.Mode().Perm())
	}
	return nil
}

// CheckSocket checks that path is a socket owned by the user: a file
// another user planted is never dialled.
func CheckSocket(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("engine socket: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case fi.Mode().Type() != fs.ModeSocket:
		return fmt.Errorf("engine socket %s is not a socket", path)
	case !ok || int(st.Uid) != os.Getuid():
		return fmt.Errorf("engine socket %s belongs to another user", path)
	}
	return nil
}
