package claude

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agenthooks/agenthooks/config"
)

// PluginRootVar is the variable through which Claude Code hands a
// plugin's hooks the plugin's folder ("${CLAUDE_PLUGIN_ROOT}/hooks/x.sh").
const PluginRootVar = "CLAUDE_PLUGIN_ROOT"

// Plugins are Claude Code's plugins: what the user installed (the
// registry under ~/.claude/plugins), enabled by a settings file's
// enabledPlugins ("name@marketplace": true), each with its hooks in
// hooks/hooks.json, which is in the settings files' format.
var Plugins = &config.Plugins{
	Installed:   InstalledPlugins,
	HooksFile:   PluginHooksFile,
	IsHooksFile: IsPluginHooksFile,
	RootVar:     PluginRootVar,
}

// InstalledPluginsFile is Claude Code's registry of installed plugins.
func InstalledPluginsFile(home string) string {
	return filepath.Join(home, ".claude", "plugins", "installed_plugins.json")
}

// PluginHooksFile is the hooks file of the plugin whose folder is root.
func PluginHooksFile(root string) string { return filepath.Join(root, "hooks", "hooks.json") }

// IsPluginHooksFile reports whether path is a plugin's hooks file: a
// hooks/hooks.json beside the plugin's manifest folder, .claude-plugin.
func IsPluginHooksFile(path string) bool {
	dir := filepath.Dir(path)
	if filepath.Base(path) != "hooks.json" || filepath.Base(dir) != "hooks" {
		return false
	}
	st, err := os.Stat(filepath.Join(filepath.Dir(dir), ".claude-plugin"))
	return err == nil && st.IsDir()
}

// installedEntry is one installation of a plugin in the registry.
type installedEntry struct {
	InstallPath string `json:"installPath"`
}

// InstalledPlugins reads the registry under home: plugin id → its
// folder. Each id maps to one installation, or (in the registry's
// newer form) a list of them, of which the first is taken. No registry
// is no plugins.
func InstalledPlugins(home string) (map[string]string, error) {
	data, err := os.ReadFile(InstalledPluginsFile(home))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var doc struct {
		Plugins map[string]json.RawMessage `json:"plugins"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for id, raw := range doc.Plugins {
		var one installedEntry
		if json.Unmarshal(raw, &one) != nil || one.InstallPath == "" {
			var many []installedEntry
			if json.Unmarshal(raw, &many) != nil || len(many) == 0 {
				continue
			}
			one = many[0]
		}
		if one.InstallPath != "" {
			out[id] = one.InstallPath
		}
	}
	return out, nil
}
