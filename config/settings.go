package config

import (
	"path/filepath"
	"slices"
)

// Settings are another agent's settings files whose hooks run here as
// Cursor runs its "third-party hooks" (docs/architecture.md, the sources).
// The agent's package describes them; the registry of agents lists them
// (agents.Settings), and a host hands that list to Load
// (Locations.Settings), which numbers them as sources after Cursor's
// (Sources) and reads them, unless the host leaves them out
// (Locations.Skip, file by file).
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
	// UserDir is the agent's folder of the user's, which holds its
	// user-level files (the Path of a file that is not Project) and its
	// plugins: under home, unless a variable of the environment getenv
	// reads moves it (Claude Code's CLAUDE_CONFIG_DIR). nil: home itself.
	UserDir func(home string, getenv func(string) string) string
}

// Folder is s's user folder for home in the environment getenv reads
// (nil reads an empty one); "" without a home.
func (s *Settings) Folder(home string, getenv func(string) string) string {
	if home == "" {
		return ""
	}
	if s.UserDir == nil {
		return home
	}
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return absPath(s.UserDir(home, getenv))
}

// Plugins are where an agent keeps the plugins its settings files enable
// by id, and their hooks.
type Plugins struct {
	// Installed lists the plugins installed in the agent's user folder
	// (Settings.UserDir): id → the plugin's root folder.
	Installed func(userDir string) (map[string]string, error)
	// HooksFiles are the files that hold the hooks of the plugin whose
	// root is root, in the settings files' format: first its default
	// hooks file, which may be missing, then each its manifest names or
	// the manifest itself when it holds them inline; each of those must
	// exist. An error says why the manifest cannot be read, naming it.
	// IsHooksFile reports whether a path is one of HooksFiles of the
	// plugin whose folder holds it (for validate): its default hooks file
	// or one its manifest names.
	HooksFiles  func(root string) ([]string, error)
	IsHooksFile func(path string) bool
	// Manifest is the plugin's manifest, which a load watches: an edit
	// can name other hooks files. nil: none.
	Manifest func(root string) string
	// RootVar names the variable that holds the plugin's root for its
	// hooks ("${CLAUDE_PLUGIN_ROOT}/scripts/x.sh").
	RootVar string
}

// SettingsFile is one settings file of an agent: one source.
type SettingsFile struct {
	// Name is the source's name in listings, logs and stored sessions.
	Name string
	// Project: the file is under each workspace root and is project-level
	// (trusted and pinned as .cursor/hooks.json is); else it is in the
	// agent's user folder (Settings.UserDir).
	Project bool
	// Path is the file under a workspace root, or in the user folder.
	Path func(dir string) string
}

// loadSettings loads the files of s, but the parts skip names: each
// project-level file under every root (not one that is also the user's
// file, as for Cursor's own), then each file under home.
func (l *loader) loadSettings(s *Settings, roots []string, home, firstRoot string, getenv func(string) string, skip Skip) {
	userDir := s.Folder(home, getenv)
	homeFiles := map[string]bool{}
	if userDir != "" {
		for _, f := range s.Files {
			if !f.Project {
				homeFiles[filepath.Clean(f.Path(userDir))] = true
			}
		}
	}
	decided := map[string]bool{} // plugin ids a file of higher priority enabled or disabled
	firstHook := len(l.set.Hooks)
	var files []*File // the settings files read, in rank order
	load := func(path string, src Source, dir, root string) *File {
		name := src.String()
		if slices.Contains(skip.Plugins, name) {
			return nil
		}
		var f *File
		if slices.Contains(skip.Hooks, name) {
			f = l.loadQuiet(path, src, dir, root)
		} else {
			f = l.load(path, src, dir, root)
		}
		if f != nil {
			files = append(files, f)
		}
		return f
	}
	defer func() { settingsEnv(files, l.set.Hooks[firstHook:]) }()
	for i, f := range s.Files {
		src := l.set.Sources.File(s, i)
		switch {
		case f.Project:
			for _, r := range roots {
				if p := f.Path(r); !homeFiles[filepath.Clean(p)] {
					l.loadPlugins(s, load(p, src, r, r), userDir, decided)
				}
			}
		case userDir != "":
			l.loadPlugins(s, load(f.Path(userDir), src, home, firstRoot), userDir, decided)
		}
	}
}

// settingsEnv gives hooks, those of one agent's sources (its settings
// files' and their plugins'), the env blocks of that agent's settings
// files read, files, in rank order. The agent applies its settings' env
// to every process it starts, its hooks and its plugins' hooks alike;
// here a file's env reaches the hooks of its own source and of those of
// lower priority, never a higher one's (docs/architecture.md: sources
// keep their rank), and a project-level file's only those of its own
// workspace root. Where two files set a variable, the higher's value
// stands. An untrusted file's env reaches no hook. The engine screens
// each variable as a sessionStart env of the hook's source.
func settingsEnv(files []*File, hooks []*Hook) {
	for _, h := range hooks {
		var env map[string]string
		for _, f := range files {
			if !f.Trusted || len(f.Env) == 0 || f.Source.Compare(h.Source) > 0 ||
				f.Source.ProjectLevel() && f.Root != h.Root {
				continue
			}
			if env == nil {
				env = make(map[string]string, len(f.Env))
			}
			for k, v := range f.Env {
				if _, set := env[k]; !set {
					env[k] = v
				}
			}
		}
		h.Env = env
	}
}
