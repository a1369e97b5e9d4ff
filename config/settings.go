package config

import (
	"path/filepath"
	"slices"
	"sync"
)

// Settings are another agent's settings files whose hooks run here as
// Cursor runs its "third-party hooks" (docs/architecture.md, the sources).
// The agent's package describes them; the registry of agents defines
// them as sources, with DefineSettings; Load then reads them, unless the
// host leaves them out (Locations.SkipSettings).
type Settings struct {
	// Format reads the files.
	Format *Groups
	// Files are the files that hold hooks, highest priority first. Each is
	// one source.
	Files []SettingsFile
	// ProjectDirVar names the variable that holds the workspace root for
	// the agent's hooks ("$CLAUDE_PROJECT_DIR"-style); the engine sets it
	// for every hook, and commands are expanded with it when pinning. ""
	// when the agent has none.
	ProjectDirVar string
	// Plugins finds the hooks of the plugins the files enable; nil when
	// the agent has none.
	Plugins *Plugins
}

// Plugins are where an agent keeps the plugins its settings files enable
// by id, and their hooks.
type Plugins struct {
	// Installed lists the plugins installed under home: id → the
	// plugin's root folder.
	Installed func(home string) (map[string]string, error)
	// HooksFile is the hooks file of the plugin whose root is root;
	// IsHooksFile reports whether a path is one (for validate).
	HooksFile   func(root string) string
	IsHooksFile func(path string) bool
	// RootVar names the variable that holds the plugin's root for its
	// hooks ("${CLAUDE_PLUGIN_ROOT}/scripts/x.sh").
	RootVar string
}

// SettingsFile is one settings file of an agent, and the source it is.
type SettingsFile struct {
	// Name is the source's name in listings, logs and stored sessions.
	Name string
	// Project: the file is under each workspace root and is project-level
	// (trusted and pinned as .cursor/hooks.json is); else it is under the
	// user's home.
	Project bool
	// Path is the file under a workspace root or the home.
	Path func(dir string) string
	// Source is the file's source, set by DefineSettings.
	Source Source
}

// defined holds every Settings of this process and their sources, in
// the order they were defined: a source's rank. They are process-wide
// because a source's name and level are (a stored session names its
// sources, trust pins every project-level file whatever the host reads).
var defined struct {
	mu       sync.RWMutex
	settings []*Settings
	files    []*SettingsFile // files[i] is source User+1+i
	owner    []*Settings     // owner[i] holds files[i]
}

// DefineSettings defines another agent's settings files as sources, of
// lower priority than every source defined before, in the order of
// s.Files, and sets each file's Source. A file whose name is already
// defined keeps that source. It returns s.
func DefineSettings(s *Settings) *Settings {
	defined.mu.Lock()
	defer defined.mu.Unlock()
	for i := range s.Files {
		f := &s.Files[i]
		if j := slices.IndexFunc(defined.files, func(d *SettingsFile) bool { return d.Name == f.Name }); j >= 0 {
			f.Source = User + 1 + Source(j)
			continue
		}
		defined.files = append(defined.files, f)
		defined.owner = append(defined.owner, s)
		f.Source = User + Source(len(defined.files))
	}
	if !slices.Contains(defined.settings, s) {
		defined.settings = append(defined.settings, s)
	}
	return s
}

// definedFile is the settings file of source s; nil for Cursor's sources
// and unknown ones.
func definedFile(s Source) *SettingsFile {
	defined.mu.RLock()
	defer defined.mu.RUnlock()
	if i := int(s - User - 1); i >= 0 && i < len(defined.files) {
		return defined.files[i]
	}
	return nil
}

// definedSettings is the Settings source s belongs to.
func definedSettings(s Source) *Settings {
	defined.mu.RLock()
	defer defined.mu.RUnlock()
	if i := int(s - User - 1); i >= 0 && i < len(defined.owner) {
		return defined.owner[i]
	}
	return nil
}

// DefinedSettings lists the settings defined in this process, in rank
// order.
func DefinedSettings() []*Settings {
	defined.mu.RLock()
	defer defined.mu.RUnlock()
	return slices.Clone(defined.settings)
}

// ProjectDirVars are the variables the engine sets to the workspace root
// for every hook: Cursor's CURSOR_PROJECT_DIR, then each defined agent's
// (Settings.ProjectDirVar). Words of commands are expanded with them so a
// script named through one is found and pinned.
func ProjectDirVars() []string {
	vars := []string{"CURSOR_PROJECT_DIR"}
	for _, s := range DefinedSettings() {
		if s.ProjectDirVar != "" && !slices.Contains(vars, s.ProjectDirVar) {
			vars = append(vars, s.ProjectDirVar)
		}
	}
	return vars
}

// AgentVars are the variables the defined agents set for their hooks
// (their project directory, their sessionStart env file, a plugin's
// root): a session may not set them.
func AgentVars() []string {
	var vars []string
	for _, s := range DefinedSettings() {
		rootVar := ""
		if s.Plugins != nil {
			rootVar = s.Plugins.RootVar
		}
		for _, v := range []string{s.ProjectDirVar, s.Format.envFileVar(), rootVar} {
			if v != "" && !slices.Contains(vars, v) {
				vars = append(vars, v)
			}
		}
	}
	return vars
}

// loadSettings loads the files of s: each project-level file under every
// root (not one that is also the user's file, as for Cursor's own), then
// each file under home.
func (l *loader) loadSettings(s *Settings, roots []string, home, firstRoot string) {
	homeFiles := map[string]bool{}
	if home != "" {
		for _, f := range s.Files {
			if !f.Project {
				homeFiles[filepath.Clean(f.Path(home))] = true
			}
		}
	}
	decided := map[string]bool{} // plugin ids a file of higher priority enabled or disabled
	for _, f := range s.Files {
		switch {
		case f.Project:
			for _, r := range roots {
				if p := f.Path(r); !homeFiles[filepath.Clean(p)] {
					l.loadPlugins(s, l.load(p, f.Source, r, r), home, decided)
				}
			}
		case home != "":
			l.loadPlugins(s, l.load(f.Path(home), f.Source, home, firstRoot), home, decided)
		}
	}
}

// parserOf is the parser of a source's files: the matcher groups format of
// its agent for another agent's settings file, else hooks.json's.
func parserOf(src Source) func(path string, data []byte, src Source, dir, root string) *File {
	if s := src.Settings(); s != nil && s.Format != nil {
		return s.Format.Parse
	}
	return ParseFile
}

// groupsLook is the hint for a hooks.json written in the matcher groups
// format: it names the first defined agent whose files use it.
func groupsLook() string {
	for _, s := range DefinedSettings() {
		if s.Format != nil && s.Format.Title != "" {
			return "this looks like " + s.Format.Title + "'s format"
		}
	}
	return "this looks like another agent's settings format"
}
