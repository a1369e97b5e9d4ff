package config

import (
	"path/filepath"
)

// Settings are another agent's settings files whose hooks run here as
// Cursor runs its "third-party hooks" (docs/architecture.md, the sources).
// The agent's package describes them; the registry of agents lists them
// (agents.Settings), and a host hands that list to Load
// (Locations.Settings), which numbers them as sources after Cursor's
// (Sources) and reads them, unless the host leaves them out
// (Locations.SkipSettings).
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

// SettingsFile is one settings file of an agent: one source.
type SettingsFile struct {
	// Name is the source's name in listings, logs and stored sessions.
	Name string
	// Project: the file is under each workspace root and is project-level
	// (trusted and pinned as .cursor/hooks.json is); else it is under the
	// user's home.
	Project bool
	// Path is the file under a workspace root or the home.
	Path func(dir string) string
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
	for i, f := range s.Files {
		src := l.set.Sources.File(s, i)
		switch {
		case f.Project:
			for _, r := range roots {
				if p := f.Path(r); !homeFiles[filepath.Clean(p)] {
					l.loadPlugins(s, l.load(p, src, r, r), home, decided)
				}
			}
		case home != "":
			l.loadPlugins(s, l.load(f.Path(home), src, home, firstRoot), home, decided)
		}
	}
}
