// Package install wires an agent (Claude Code, Codex, Gemini CLI, GitHub
// Copilot, OpenCode) to agenthooks in the agent's own settings: every
// event agenthooks can serve calls `agenthooks run --from AGENT` by the
// binary's absolute path. Install is idempotent; everything else in a
// settings file is kept byte for byte; a file that existed is backed up
// beside itself before the first change; Uninstall puts back the backup
// when the file has not been edited since, so an install followed by an
// uninstall leaves the agent's settings exactly as they were.
package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/internal/atomicfile"
)

// Scopes.
const (
	Project = "project"
	User    = "user"
)

// BackupSuffix is appended to a settings file's name for its backup.
const BackupSuffix = ".agenthooks-backup"

// Options say what to wire where.
type Options struct {
	Agent string
	Scope string // Project or User
	// Root is the workspace root (project scope).
	Root string
	// Home and Getenv locate user-scope files ($CODEX_HOME,
	// $GEMINI_CLI_HOME, $XDG_CONFIG_HOME, …); nil Getenv is os.Getenv.
	Home   string
	Getenv func(string) string
	// Binary is the absolute path of the agenthooks binary to call.
	Binary string
}

// Change is what happened to one file.
type Change struct {
	Path string
	// Action: created, updated, unchanged, restored, removed, absent.
	Action string
	// Backup is the backup written (install) or left in place (an
	// uninstall that could not simply restore it).
	Backup string
	// Note is something the user must do in the agent itself.
	Note string
	// Gates are the agent's own conditions for running the hooks, as they
	// stand after an install (Trust opens them).
	Gates []Gate
	// Untrusted: uninstall took back what Trust had set in the agent's
	// own files.
	Untrusted bool
}

// Install wires the agent to agenthooks.
func (as Agents) Install(o Options) (Change, error) {
	a, path, err := as.resolve(o)
	if err != nil {
		return Change{}, err
	}
	if !filepath.IsAbs(o.Binary) {
		return Change{}, fmt.Errorf("install: the agenthooks binary path %q is not absolute", o.Binary)
	}
	current, exists, err := ReadFile(path)
	if err != nil {
		return Change{}, err
	}
	want, err := render(a, current, exists, o.Binary)
	if err != nil {
		return Change{}, fmt.Errorf("install: %s: %w (fix the file, or move it away and install again)", path, err)
	}
	ch := Change{Path: path, Note: a.Note}
	if exists && bytes.Equal(want, current) {
		ch.Action = "unchanged"
		ch.gates(as, o)
		return ch, nil
	}
	ch.Action = "created"
	if exists {
		ch.Action = "updated"
		if !installed(a, current) {
			// The file as it was before agenthooks: kept for uninstall
			// and for the user. A re-install keeps the first backup.
			ch.Backup = path + BackupSuffix
			if err := WriteFile(ch.Backup, current, path); err != nil {
				return Change{}, err
			}
		}
	}
	if err := WriteFile(path, want, path); err != nil {
		return Change{}, err
	}
	ch.gates(as, o)
	return ch, nil
}

// gates reads the agent's own gates into the change. The hooks are
// installed whatever they say; a file of the agent's that cannot be read
// becomes the note, since the user must fix it for the hooks to run.
func (ch *Change) gates(as Agents, o Options) {
	gates, err := as.Gates(o)
	if err != nil {
		ch.Note = strings.TrimSpace(ch.Note + " The agent's own trust settings could not be read: " + err.Error())
		return
	}
	ch.Gates = gates
}

// Uninstall removes what Install added. When the file is exactly what
// Install made of its backup (or of nothing), the backup is put back (or
// the file removed), byte for byte; when it was edited since, only
// agenthooks' own hooks are taken out and the backup is left.
func (as Agents) Uninstall(o Options) (Change, error) {
	a, path, err := as.resolve(o)
	if err != nil {
		return Change{}, err
	}
	ch := Change{Path: path, Action: "absent"}
	// The agent's gates first: what Trust set for these hooks goes even
	// when the hooks file was removed by hand.
	l, lerr := ledgerFor(o, a)
	if lerr != nil {
		return Change{}, lerr
	}
	if l != nil && len(l.EntriesFor(path)) > 0 {
		if err := untrust(o, a, path); err != nil {
			return Change{}, err
		}
		ch.Untrusted = true
	}
	current, exists, err := ReadFile(path)
	if err != nil || !exists || !installed(a, current) {
		return ch, err
	}
	backupPath := path + BackupSuffix
	backup, hasBackup, err := ReadFile(backupPath)
	if err != nil {
		return Change{}, err
	}
	if hasBackup {
		if want, err := render(a, backup, true, o.Binary); err == nil && bytes.Equal(want, current) || a.File != nil {
			if err := WriteFile(path, backup, path); err != nil {
				return Change{}, err
			}
			ch.Action = "restored"
			return ch, os.Remove(backupPath)
		}
	} else if want, err := render(a, nil, false, o.Binary); err == nil && bytes.Equal(want, current) || a.File != nil {
		if err := os.Remove(path); err != nil {
			return Change{}, err
		}
		removeEmptyDirs(filepath.Dir(path), o.stopDir())
		ch.Action = "removed"
		return ch, nil
	}
	// Edited since the install: take out agenthooks' hooks only.
	doc, err := ParseSettings(current)
	if err != nil {
		return Change{}, fmt.Errorf("uninstall: %s: %w", path, err)
	}
	doc.removeHandlers(Ours(a.Name), true)
	if err := WriteFile(path, doc.Pack(), path); err != nil {
		return Change{}, err
	}
	ch.Action = "updated"
	if hasBackup {
		ch.Backup = backupPath
	}
	return ch, nil
}

// Path returns the file the agent's hooks go in for the options.
func (as Agents) Path(o Options) (string, error) {
	_, p, err := as.resolve(o)
	return p, err
}

func (as Agents) resolve(o Options) (*Agent, string, error) {
	a, ok := as.Lookup(o.Agent)
	if !ok {
		return nil, "", fmt.Errorf("unknown agent %q: use one of %s", o.Agent, strings.Join(as.Names(), ", "))
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	switch o.Scope {
	case Project:
		if o.Root == "" {
			return nil, "", errors.New("project scope needs the workspace root")
		}
		return a, a.Project(o.Root), nil
	case User:
		if o.Home == "" {
			return nil, "", errors.New("user scope needs the home folder")
		}
		return a, a.User(Env{Home: o.Home, Getenv: getenv}), nil
	}
	return nil, "", fmt.Errorf("unknown scope %q: use %s or %s", o.Scope, Project, User)
}

// stopDir is the folder whose subfolders an uninstall may remove when it
// emptied them.
func (o Options) stopDir() string {
	if o.Scope == Project {
		return o.Root
	}
	return o.Home
}

// render returns the file with the agent wired to bin: the whole file for
// agents with a file of their own, else the settings with any earlier
// agenthooks hooks replaced.
func render(a *Agent, current []byte, exists bool, bin string) ([]byte, error) {
	if a.File != nil {
		return a.File(bin), nil
	}
	if !exists {
		current = []byte("{}\n")
	}
	doc, err := ParseSettings(current)
	if err != nil {
		return nil, err
	}
	doc.removeHandlers(Ours(a.Name), false)
	cmd := command(bin, a.Name)
	for _, ev := range a.Events {
		if err := doc.addGroup(ev, a.Group(cmd, ev)); err != nil {
			return nil, err
		}
	}
	return doc.Pack(), nil
}

// installed reports whether the file holds agenthooks' hooks for a.
func installed(a *Agent, data []byte) bool {
	if a.File != nil {
		return bytes.Contains(data, []byte("run")) && bytes.Contains(data, []byte(`"--from", "`+a.Name+`"`)) ||
			bytes.Contains(data, []byte("run --from "+a.Name))
	}
	doc, err := ParseSettings(data)
	if err != nil {
		return false
	}
	return doc.removeHandlers(Ours(a.Name), false)
}

// Ours recognises the handlers Install writes: they run agenthooks for
// this agent.
func Ours(name string) func(map[string]any) bool {
	marker := " run --from " + name
	return func(h map[string]any) bool {
		c, _ := h["command"].(string)
		return strings.HasSuffix(c, marker) || strings.Contains(c, marker+" ")
	}
}

func ReadFile(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	return b, true, nil
}

// WriteFile replaces path atomically, with the mode of modeFrom if it
// exists (0644 otherwise), creating the folders it needs.
func WriteFile(path string, data []byte, modeFrom string) error {
	mode := fs.FileMode(0o644)
	if info, err := os.Stat(modeFrom); err == nil {
		mode = info.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := atomicfile.WriteMode(path, data, mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// removeEmptyDirs removes dir and its parents while they are empty, up to
// (not including) stop.
func removeEmptyDirs(dir, stop string) {
	stop = filepath.Clean(stop)
	for d := filepath.Clean(dir); d != stop && strings.HasPrefix(d, stop+string(filepath.Separator)); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			return
		}
	}
}

// Wired lists the agents whose user-scope settings run agenthooks, as
// Install leaves them: what a machine tells its team's fleet view.
func (as Agents) Wired(home string, getenv func(string) string) []string {
	var out []string
	for _, name := range as.Names() {
		a, path, err := as.resolve(Options{Agent: name, Scope: User, Home: home, Getenv: getenv})
		if err != nil {
			continue
		}
		if data, ok, err := ReadFile(path); err == nil && ok && installed(a, data) {
			out = append(out, name)
		}
	}
	return out
}

func RemoveFile(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}
