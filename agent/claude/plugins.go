package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/config"
)

// PluginRootVar is the variable through which Claude Code hands a
// plugin's hooks the plugin's folder ("${CLAUDE_PLUGIN_ROOT}/hooks/x.sh").
const PluginRootVar = "CLAUDE_PLUGIN_ROOT"

// Plugins are Claude Code's plugins: what the user installed (the
// registry under the user folder's plugins, UserDir), enabled by a
// settings file's enabledPlugins ("name@marketplace": true), each with
// its hooks in hooks/hooks.json and wherever its manifest's "hooks"
// says, all in the settings files' format.
var Plugins = &config.Plugins{
	Installed:   InstalledPlugins,
	HooksFiles:  PluginHooksFiles,
	IsHooksFile: IsPluginHooksFile,
	Manifest:    PluginManifest,
	RootVar:     PluginRootVar,
}

// InstalledPluginsFile is Claude Code's registry of installed plugins in
// the user folder dir (UserDir).
func InstalledPluginsFile(dir string) string {
	return filepath.Join(dir, "plugins", "installed_plugins.json")
}

// PluginHooksFile is the default hooks file of the plugin whose folder is
// root.
func PluginHooksFile(root string) string { return filepath.Join(root, "hooks", "hooks.json") }

// PluginManifest is the manifest of the plugin whose folder is root.
func PluginManifest(root string) string {
	return filepath.Join(root, ".claude-plugin", "plugin.json")
}

// PluginHooksFiles are the files that hold the hooks of the plugin whose
// folder is root, as Claude Code loads them: its hooks/hooks.json, then
// what its manifest's "hooks" names, which adds to that file rather than
// replacing it: a path relative to the plugin's folder, a list of them,
// or the hooks themselves inline, in which case the manifest is itself
// read as a settings file ({"hooks": {…}}). A file named twice is read
// once. A manifest that is missing names nothing; one that cannot be
// read, or whose "hooks" is of another type or names a path outside the
// plugin's folder, is an error, as Claude Code does not load such a
// plugin.
func PluginHooksFiles(root string) ([]string, error) {
	def := PluginHooksFile(root)
	manifest := PluginManifest(root)
	data, err := os.ReadFile(manifest)
	if errors.Is(err, fs.ErrNotExist) {
		return []string{def}, nil
	}
	if err != nil {
		return nil, err
	}
	var doc struct {
		Hooks json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("its manifest %s is not valid JSON: %w", manifest, err)
	}
	var named []string
	switch raw := bytes.TrimSpace(doc.Hooks); {
	case len(raw) == 0 || string(raw) == "null":
	case raw[0] == '{':
		named = []string{manifest}
	case raw[0] == '"':
		var p string
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, fmt.Errorf("its manifest %s: \"hooks\": %w", manifest, err)
		}
		named = []string{p}
	case raw[0] == '[':
		if err := json.Unmarshal(raw, &named); err != nil {
			return nil, fmt.Errorf("its manifest %s: \"hooks\" must be a path, a list of paths or the hooks themselves: %w", manifest, err)
		}
	default:
		return nil, fmt.Errorf("its manifest %s: \"hooks\" must be a path, a list of paths or the hooks themselves, got %s", manifest, raw)
	}
	out := []string{def}
	for _, p := range named {
		full := p
		if p != manifest {
			if full, err = pluginPath(root, p); err != nil {
				return nil, fmt.Errorf("its manifest %s: %w", manifest, err)
			}
		}
		if !slices.Contains(out, full) {
			out = append(out, full)
		}
	}
	return out, nil
}

// pluginPath resolves a path of a plugin's manifest against its folder,
// root; one outside it is an error, as Claude Code copies only the
// plugin's folder when it installs it.
func pluginPath(root, p string) (string, error) {
	if p == "" || filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return "", fmt.Errorf("hooks path %q must be relative to the plugin's folder (\"./hooks/more.json\")", p)
	}
	full := filepath.Join(root, filepath.FromSlash(p))
	if rel, err := filepath.Rel(root, full); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("hooks path %q is outside the plugin's folder", p)
	}
	return full, nil
}

// IsPluginHooksFile reports whether path is a plugin's hooks file, one
// PluginHooksFiles gives for the nearest folder above it that holds a
// .claude-plugin folder: its hooks/hooks.json, a file its manifest's
// "hooks" names, or the manifest itself when it holds the hooks inline.
// A plugin whose manifest cannot be read still has its hooks/hooks.json.
func IsPluginHooksFile(path string) bool {
	path = filepath.Clean(path)
	for root := filepath.Dir(path); ; {
		if st, err := os.Stat(filepath.Join(root, ".claude-plugin")); err == nil && st.IsDir() {
			files, err := PluginHooksFiles(root)
			if err != nil {
				return path == PluginHooksFile(root)
			}
			return slices.Contains(files, path)
		}
		up := filepath.Dir(root)
		if up == root {
			return false
		}
		root = up
	}
}

// installedEntry is one installation of a plugin in the registry.
type installedEntry struct {
	InstallPath string `json:"installPath"`
}

// InstalledPlugins reads the registry in the user folder dir (UserDir):
// plugin id → its folder. Each id maps to one installation, or (in the registry's
// newer form) a list of them, of which the first is taken. No registry
// is no plugins.
func InstalledPlugins(dir string) (map[string]string, error) {
	data, err := os.ReadFile(InstalledPluginsFile(dir))
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
