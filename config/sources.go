package config

import (
	"slices"
)

// Sources are the hooks sources one host knows, highest priority first:
// Cursor's four, then each file of the other agents' settings files it
// was given (Locations.Settings: the registry's list, agents.Settings), in
// their order. They are a value made per load, not a table of the
// process: a stored session names its sources, and Named reads the names
// back; trust pins every project-level file of every agent
// (ProjectPins); every agent's variables are refused from a session
// (AgentVars), whichever files a host reads. The zero Sources are
// Cursor's four alone.
type Sources struct {
	settings    []*Settings
	all         []Source
	rootVars    []string
	agentVars   []string
	groupsTitle string
}

// cursorSources are Cursor's own sources, in rank order.
var cursorSources = [...]Source{Enterprise, Team, Project, User}

// NewSources numbers the files of settings as sources after Cursor's, in
// the order given (a settings file listed twice, or a file named as an
// earlier one, keeps its first source).
func NewSources(settings []*Settings) Sources {
	ss := Sources{all: slices.Clone(cursorSources[:]), rootVars: []string{cursorProjectDirVar}}
	for _, s := range settings {
		if s == nil || slices.Contains(ss.settings, s) {
			continue
		}
		ss.settings = append(ss.settings, s)
		for _, f := range s.Files {
			if _, ok := ss.Named(f.Name); ok {
				continue
			}
			ss.all = append(ss.all, Source{rank: len(ss.all) + 1, name: f.Name, project: f.Project, settings: s})
		}
		rootVar := ""
		if s.Plugins != nil {
			rootVar = s.Plugins.RootVar
		}
		if s.ProjectDirVar != "" && !slices.Contains(ss.rootVars, s.ProjectDirVar) {
			ss.rootVars = append(ss.rootVars, s.ProjectDirVar)
		}
		for _, v := range []string{s.ProjectDirVar, s.Format.envFileVar(), rootVar} {
			if v != "" && !slices.Contains(ss.agentVars, v) {
				ss.agentVars = append(ss.agentVars, v)
			}
		}
		if ss.groupsTitle == "" && s.Format != nil {
			ss.groupsTitle = s.Format.Title
		}
	}
	return ss
}

// cursorProjectDirVar is the variable Cursor sets to the workspace root
// for every hook.
const cursorProjectDirVar = "CURSOR_PROJECT_DIR"

// All lists every source, highest priority first.
func (ss Sources) All() []Source { return slices.Clone(ss.list()) }

// list is All without the copy, for reading.
func (ss Sources) list() []Source {
	if ss.all == nil {
		return cursorSources[:]
	}
	return ss.all
}

// Settings lists the other agents' settings files, in rank order.
func (ss Sources) Settings() []*Settings { return ss.settings }

// File is the source of s.Files[i]; the zero Source when s is not among
// the settings or has no such file.
func (ss Sources) File(s *Settings, i int) Source {
	if s == nil || i < 0 || i >= len(s.Files) || !slices.Contains(ss.settings, s) {
		return Source{}
	}
	src, _ := ss.Named(s.Files[i].Name)
	return src
}

// Named is the source of that name (Source.String), as a stored session
// or log names it.
func (ss Sources) Named(name string) (Source, bool) {
	for _, s := range ss.list() {
		if s.name == name {
			return s, true
		}
	}
	return Source{}, false
}

// Lowest is the source of lowest priority: what a session variable of
// unknown origin is taken to come from.
func (ss Sources) Lowest() Source {
	all := ss.list()
	return all[len(all)-1]
}

// ProjectDirVars are the variables the engine sets to the workspace root
// for every hook: Cursor's CURSOR_PROJECT_DIR, then each agent's
// (Settings.ProjectDirVar). Words of commands are expanded with them so a
// script named through one is found and pinned.
func (ss Sources) ProjectDirVars() []string {
	if ss.rootVars == nil {
		return []string{cursorProjectDirVar}
	}
	return ss.rootVars
}

// AgentVars are the variables the agents set for their hooks (their
// project directory, their sessionStart env file, a plugin's root): a
// session may not set them.
func (ss Sources) AgentVars() []string { return ss.agentVars }

// Parse parses the hooks file at path as a file of source src: in its
// agent's format for another agent's settings file, else as hooks.json
// (ParseFile), whose messages then name the agents' format a file was
// mistakenly written in.
func (ss Sources) Parse(path string, data []byte, src Source, dir, root string) *File {
	var f *File
	if s := src.Settings(); s != nil && s.Format != nil {
		f = s.Format.Parse(path, data, src, dir, root)
	} else {
		f = parseFile(path, data, src, dir, root, ss.groupsTitle)
	}
	for _, h := range f.Hooks {
		h.rootVars = ss.ProjectDirVars()
	}
	return f
}
