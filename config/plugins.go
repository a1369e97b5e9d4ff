package config

import (
	"fmt"
	"maps"
	"slices"
)

// loadPlugins loads the hooks of the plugins settings file f enables
// (File.Plugins), as the agent would: each plugin once, decided by the
// file of highest priority that names it (a later file's true does not
// undo an earlier false), its hooks file read in the agent's format, as
// a file of f's source right after f. Its hooks run with the plugin's
// root in Plugins.RootVar, and only when f is trusted: a project that
// enables a plugin is reviewed as its settings file is, while the plugin
// itself is what the user installed under home.
func (l *loader) loadPlugins(s *Settings, f *File, home string, decided map[string]bool) {
	if f == nil || s.Plugins == nil || len(f.Plugins) == 0 || home == "" {
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
			installed, listErr = s.Plugins.Installed(home)
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
		l.loadPlugin(s, f, root)
	}
}

// loadPlugin loads one plugin's hooks file, if it has one.
func (l *loader) loadPlugin(s *Settings, f *File, root string) {
	path := s.Plugins.HooksFile(root)
	l.watch(path)
	data, err := readFile(path)
	switch {
	case missing(err):
		return // a plugin without hooks
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
