package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agenthooks/agenthooks/internal/settings"
)

// EnterpriseEnv names the environment variable that overrides the
// enterprise hooks file, so tests and sandboxes never read the real one.
const EnterpriseEnv = settings.EnterpriseFile

// Locations says where to look for hooks files. Every field can be set,
// so that tests never touch the real /etc or $HOME.
type Locations struct {
	// EnterpriseFile is the system-wide hooks file; "" means the
	// per-OS default (see DefaultEnterpriseFile).
	EnterpriseFile string
	// Home holds the user hooks (Home/.cursor/hooks.json) and the team
	// hooks (Home/.cursor/managed/team_<id>/hooks/hooks.json). "" means
	// no user or team hooks.
	Home string
	// WorkspaceRoots are the open workspace folders, in order; each may
	// hold project hooks in <root>/.cursor/hooks.json.
	WorkspaceRoots []string
	// Settings are the other agents' settings files that are sources,
	// ranked after Cursor's in this order (NewSources): the registry's
	// list, agents.Settings, which a host fills in. They are read after
	// Cursor's files; nil is Cursor's sources alone.
	Settings []*Settings
	// Skip leaves parts of Settings unread: for a host that is that agent,
	// or that runs some of them itself (GitHub Copilot CLI runs the hooks
	// of a project's .claude/settings.json and .claude/settings.local.json,
	// not those of the user's ~/.claude/settings.json, nor any plugin's),
	// running them again here would run them twice. A file left out stays
	// a source all the same: a stored session still names it, its agent's
	// variables are still refused from a session, and trust still pins it
	// (Sources).
	Skip Skip
	// Getenv reads the environment the hooks are loaded for, for the
	// variables that move an agent's user folder (Settings.UserDir); nil
	// reads an empty one. DefaultLocations sets it.
	Getenv func(string) string
}

// Skip names files of Settings, by their sources' names
// (SettingsFile.Name), whose hooks a host leaves unread.
type Skip struct {
	// Hooks are the files whose own hooks are left unread. Such a file
	// is still read for the plugins it enables and its env block, which
	// reaches those plugins' hooks and the hooks of the agent's files of
	// lower rank, unless Plugins names it too.
	Hooks []string
	// Plugins are the files whose enabled plugins' hooks are left unread
	// too.
	Plugins []string
}

// Key is s as a key of a map of engines.
func (s Skip) Key() string {
	return strings.Join(s.Hooks, " ") + "\x00" + strings.Join(s.Plugins, " ")
}

// DefaultEnterpriseFile returns this OS's system-wide hooks file.
func DefaultEnterpriseFile() string { return defaultEnterpriseFile }

// DefaultLocations returns the real locations for the given workspace
// roots, in the environment getenv reads: the enterprise file from
// $AGENTHOOKS_ENTERPRISE_CONFIG or the per-OS default, and the user's
// home directory.
func DefaultLocations(getenv func(string) string, roots []string) Locations {
	ent := getenv(EnterpriseEnv)
	if ent == "" {
		ent = defaultEnterpriseFile
	}
	home, err := settings.Home(getenv)
	if err != nil {
		home = "" // no home: no user or team hooks, rather than hooks from a guessed place
	}
	return Locations{EnterpriseFile: ent, Home: home, WorkspaceRoots: append([]string(nil), roots...), Getenv: getenv}
}

// UserFile is the user hooks file under home.
func UserFile(home string) string { return filepath.Join(home, ".cursor", "hooks.json") }

// ProjectFile is the project hooks file of a workspace root.
func ProjectFile(root string) string { return filepath.Join(root, ".cursor", "hooks.json") }

// TeamDir is the folder the team sync writes into: one team_<id>
// subfolder per team.
func TeamDir(home string) string { return filepath.Join(home, ".cursor", "managed") }

// TeamHooksDir is the hooks folder of one team; its hooks run from it.
func TeamHooksDir(home, teamID string) string {
	return filepath.Join(TeamDir(home), "team_"+teamID, "hooks")
}

// teamIDs lists the team ids that have a folder under dir, in load
// order: numeric ids by value, before other ids in lexical order.
func teamIDs(entries []os.DirEntry) []string {
	var ids []string
	for _, e := range entries {
		if id, ok := strings.CutPrefix(e.Name(), "team_"); ok {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return teamLess(ids[i], ids[j]) })
	return ids
}

// teamLess orders team ids: numerically when both are numbers (of any
// length), numbers first, then lexically.
func teamLess(a, b string) bool {
	na, nb := isIndex(a), isIndex(b)
	switch {
	case na && nb:
		ta, tb := strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
		if len(ta) != len(tb) {
			return len(ta) < len(tb)
		}
		if ta != tb {
			return ta < tb
		}
		return a < b
	case na != nb:
		return na
	}
	return a < b
}

// absPath makes a location absolute so hooks get a usable working
// directory and CURSOR_PROJECT_DIR whatever the caller's cwd was.
func absPath(p string) string {
	if p == "" {
		return ""
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// SandboxName is the sandbox file's name. Each hooks source has one
// beside its hooks file (sandbox.json in the enterprise folder, in a
// team's hooks folder, in ~/.cursor and in <root>/.cursor); package
// sandbox reads them.
const SandboxName = "sandbox.json"

// SandboxFileBeside returns the sandbox file in the folder of hooksFile.
func SandboxFileBeside(hooksFile string) string {
	return filepath.Join(filepath.Dir(hooksFile), SandboxName)
}

// TeamIDs lists the ids of the teams that have a folder under home's
// managed folder, in the order their hooks load. A missing folder is no
// team and no error.
func TeamIDs(home string) ([]string, error) {
	entries, err := os.ReadDir(TeamDir(home))
	if err != nil {
		if missing(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("list the team folders in %s: %w", TeamDir(home), err)
	}
	return teamIDs(entries), nil
}
