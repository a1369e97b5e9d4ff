package config

import (
	"fmt"
	"maps"
	"slices"
)

// loadPlugins loads the hooks of the plugins settings file f enables
// (File.Plugins), as the agent would: each plugin once, decided by the
// file of highest priority that names it (a later file's true does not
// undo an earlier false), its hooks files read in the agent's format
// (Plugins.HooksFiles), as files of f's source right after f. Its hooks
// run with the plugin's root in Plugins.RootVar, and only when f is
// trusted: a project that enables a plugin is reviewed as its settings
// file is, while the plugin itself is what the user installed in the
// agent's user folder, userDir.
func (l *loader) loadPlugins(s *Settings, f *File, userDir string, decided map[string]bool) {
	if f == nil || s.Plugins == nil || len(f.Plugins) == 0 || userDir == "" {
		return
	}
	var installed map[string]string
	var listErr error
	listed := false
	for _, id := range slices.Sorted(maps.Keys(f.Plugins)) {
		if decided[id] {
			continue
		}
		decided[id] = true
		if !f.Plugins[id] {
			continue
		}
		if !listed {
			installed, listErr = s.Plugins.Installed(userDir)
			listed = true
		}
		root, ok := installed[id]
		if !ok {
			msg := fmt.Sprintf("plugin %q is enabled but not installed; its hooks do not run", id)
			if listErr != nil {
				msg = fmt.Sprintf("plugin %q is enabled, but the installed plugins cannot be read (%v); its hooks do not run", id, listErr)
			}
			p := Problem{File: f.Path, Pointer: pointerJoin("/enabledPlugins", id), Severity: Warning, Message: msg,
				Fix: "install it in " + s.Format.Title + ", or remove it from enabledPlugins"}
			f.Problems = append(f.Problems, p)
			l.set.Problems = append(l.set.Problems, p)
			continue
		}
		l.loadPlugin(s, f, id, root)
	}
}

// loadPlugin loads the hooks files of plugin id, whose root is root:
// none when its manifest cannot be read, as the agent loads no part of
// such a plugin.
func (l *loader) loadPlugin(s *Settings, f *File, id, root string) {
	if s.Plugins.Manifest != nil {
		l.watch(s.Plugins.Manifest(root))
	}
	paths, err := s.Plugins.HooksFiles(root)
	if err != nil {
		p := Problem{File: f.Path, Pointer: pointerJoin("/enabledPlugins", id), Severity: Error,
			Message: fmt.Sprintf("plugin %q: %v; none of its hooks run", id, err),
			Fix:     "fix the plugin's manifest, or remove the plugin from enabledPlugins"}
		f.Problems = append(f.Problems, p)
		l.set.Problems = append(l.set.Problems, p)
		return
	}
	for i, path := range paths {
		l.loadPluginFile(s, f, id, root, path, i == 0)
	}
}

// loadPluginFile loads one hooks file of plugin id; optional: the
// plugin's default hooks file, which a plugin without hooks lacks.
func (l *loader) loadPluginFile(s *Settings, f *File, id, root, path string, optional bool) {
	l.watch(path)
	data, err := readFile(path)
	switch {
	case missing(err) && optional:
		return // a plugin without hooks
	case missing(err):
		p := Problem{File: path, Severity: Error,
			Message: fmt.Sprintf("plugin %q names this hooks file in its manifest, but it does not exist; its hooks do not run", id),
			Fix:     "create the file, or take it out of the manifest's \"hooks\""}
		l.set.Problems = append(l.set.Problems, p)
		return
	case err != nil:
		p := readProblem(path, err)
		l.set.Problems = append(l.set.Problems, p)
		return
	}
	pf := l.set.Sources.Parse(path, data, f.Source, f.Dir, f.Root)
	pf.Trusted, pf.TrustReason = f.Trusted, f.TrustReason
	for _, h := range pf.Hooks {
		h.Vars = append(h.Vars, s.Plugins.RootVar+"="+root)
	}
	l.set.Files = append(l.set.Files, pf)
	l.set.Problems = append(l.set.Problems, pf.Problems...)
	if pf.Trusted {
		l.set.Hooks = append(l.set.Hooks, pf.Hooks...)
	}
}
