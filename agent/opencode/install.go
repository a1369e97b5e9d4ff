package opencode

import (
	_ "embed"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/install"
	"github.com/agenthooks/agenthooks/internal/lazyre"
)

// Install wires OpenCode to agenthooks: a plugin of its own.
var Install = &install.Agent{
	Name: "opencode", Title: "OpenCode", Program: "opencode",
	Project: func(root string) string { return filepath.Join(root, ".opencode", "plugins", "agenthooks.js") },
	User: func(e install.Env) string {
		return filepath.Join(e.Dir("XDG_CONFIG_HOME", ".config"), "opencode", "plugins", "agenthooks.js")
	},
	File:  PluginFile,
	Wired: opencodeWired,
}

var opencodeBin = lazyre.New(`(?m)^const BIN = ("(?:[^"\\]|\\.)*");`)

// opencodeWired is the command line of the plugin's BIN.
func opencodeWired(data []byte) []string {
	var bin string
	if m := opencodeBin().FindSubmatch(data); m != nil && json.Unmarshal(m[1], &bin) == nil {
		return []string{install.ShellQuoteWord(bin) + " run --from opencode"}
	}
	return nil
}

//go:embed opencode.js
var opencodePlugin string

func PluginFile(bin string) []byte {
	s := strings.Replace(opencodePlugin, `"__AGENTHOOKS_BIN__"`, string(install.MustJSON(bin)), 1)
	s = strings.Replace(s, "__TIMEOUT_MS__", strconv.Itoa(install.TimeoutSeconds*1000), 1)
	return []byte(s)
}
