package teamsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agenthooks/agenthooks/config"
)

// Names inside a team folder.
const (
	liveName    = "hooks"
	stateName   = "sync.json"
	lockName    = "sync.lock"
	stagePrefix = "hooks.new-"
	oldPrefix   = "hooks.old-"
	tempPrefix  = "sync.json.tmp-"
)

// errNoFolder means a folder does not exist (and was not to be created).
var errNoFolder = errors.New("no such folder")

// openManaged opens ~/.cursor/managed, creating it when create is set. It
// must be a real folder: a symlink there could send the team's scripts
// anywhere, so it is refused rather than followed. ~/.cursor itself may
// be a link (dotfiles setups do that); the engine reads through it too.
func (c *Client) openManaged(create bool) (*os.Root, error) {
	dir := config.TeamDir(c.opts.Home)
	if create {
		if err := ensureDir(dir); err != nil {
			return nil, err
		}
	}
	return openRealDir(dir, func() (fs.FileInfo, error) { return os.Lstat(dir) }, func() (*os.Root, error) { return os.OpenRoot(dir) })
}

// openTeam opens team_<id> inside the managed folder, creating it when
// create is set, with the same refusal of links.
func openTeam(managed *os.Root, id int64, create bool) (*os.Root, error) {
	name := "team_" + teamFolderID(id)
	if create {
		if err := managed.Mkdir(name, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create %s: %w", filepath.Join(managed.Name(), name), err)
		}
	}
	return openRealDir(filepath.Join(managed.Name(), name),
		func() (fs.FileInfo, error) { return managed.Lstat(name) },
		func() (*os.Root, error) { return managed.OpenRoot(name) })
}

// openRealDir opens a folder as a Root after checking, without following
// links, that it is a plain folder, and checks that what was opened is
// what was checked (nothing swapped it in between).
func openRealDir(path string, lstat func() (fs.FileInfo, error), open func() (*os.Root, error)) (*os.Root, error) {
	fi, err := lstat()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoFolder
	}
	if err != nil {
		return nil, fmt.Errorf("inspect %s: %w", path, err)
	}
	if err := plainDir(path, fi); err != nil {
		return nil, err
	}
	r, err := open()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	now, err := r.Stat(".")
	if err != nil || !os.SameFile(fi, now) {
		r.Close()
		return nil, fmt.Errorf("%s changed while it was being opened; run the sync again", path)
	}
	return r, nil
}

// plainDir refuses anything but a plain folder: links, junctions, files.
func plainDir(path string, fi fs.FileInfo) error {
	switch t := fi.Mode().Type(); {
	case t == fs.ModeDir:
		return nil
	case t&fs.ModeSymlink != 0, t&fs.ModeIrregular != 0:
		target, _ := os.Readlink(path)
		return fmt.Errorf("%s is a link (to %q), not a folder; team hooks are never written through a link: remove it and sync again", path, target)
	default:
		return fmt.Errorf("%s is not a folder (%s); remove it and sync again", path, t)
	}
}

// ensureDir creates dir and its missing parents; it exists only so
// that the first sync on a machine has somewhere to write. Existing
// components are left as they are and checked by the caller.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	return nil
}
