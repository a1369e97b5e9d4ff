package install

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/shell"
)

// What the doctor asks of an install: is the agent there, is it wired,
// and which agenthooks binary do its hooks run.

// Status is what an agent's settings for one scope hold.
type Status struct {
	Path string
	// Wired: the file runs agenthooks for this agent.
	Wired bool
	// Binaries are the agenthooks binaries its hooks run, each once.
	Binaries []string
}

// Wiring reads the agent's settings for o's scope.
func (as Agents) Wiring(o Options) (Status, error) {
	a, path, err := as.resolve(o)
	if err != nil {
		return Status{}, err
	}
	st := Status{Path: path}
	data, ok, err := ReadFile(path)
	if err != nil || !ok || !installed(a, data) {
		return st, err
	}
	st.Wired = true
	for _, c := range wiredCommands(a, data) {
		if bin := commandBinary(c); bin != "" && !slices.Contains(st.Binaries, bin) {
			st.Binaries = append(st.Binaries, bin)
		}
	}
	return st, nil
}

// wiredCommands are the command lines of the agent's hooks that run
// agenthooks.
func wiredCommands(a *Agent, data []byte) []string {
	switch {
	case a.Wired != nil:
		return a.Wired(data)
	case a.File != nil: // Copilot's hook file
		var f struct {
			Hooks map[string][]struct {
				Bash string `json:"bash"`
			} `json:"hooks"`
		}
		if json.Unmarshal(data, &f) != nil {
			return nil
		}
		var out []string
		for _, hs := range f.Hooks {
			for _, h := range hs {
				if strings.Contains(h.Bash, " run --from "+a.Name) {
					out = append(out, h.Bash)
				}
			}
		}
		return out
	}
	doc, err := ParseSettings(data)
	if err != nil {
		return nil
	}
	var out []string
	mine := Ours(a.Name)
	doc.removeHandlers(func(h map[string]any) bool {
		if mine(h) {
			c, _ := h["command"].(string)
			out = append(out, c)
		}
		return false
	}, false)
	return out
}

func ShellQuoteWord(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// commandBinary is the program a hook command runs: its first word as a
// shell reads it (or, on Windows, the double-quoted path install writes).
func commandBinary(c string) string {
	if runtime.GOOS == "windows" && strings.HasPrefix(c, `"`) {
		if end := strings.Index(c[1:], `"`); end >= 0 {
			return filepath.FromSlash(c[1 : end+1])
		}
	}
	words, err := shell.Fields(c, func(string) string { return "" })
	if err != nil || len(words) == 0 {
		return ""
	}
	return words[0]
}

// Find looks for the agent's program on PATH (from o's environment), then
// in the places its installers put it; "" when it is in none.
func (as Agents) Find(o Options) string {
	a, ok := as.Lookup(o.Agent)
	if !ok || a.Program == "" {
		return ""
	}
	name := a.Program
	getenv := o.GetenvFunc()
	exe := name
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	for _, dir := range filepath.SplitList(getenv("PATH")) {
		if p := executable(filepath.Join(dir, name)); p != "" {
			return p
		}
		if runtime.GOOS == "windows" {
			for _, ext := range []string{".exe", ".cmd"} {
				if p := executable(filepath.Join(dir, name+ext)); p != "" {
					return p
				}
			}
		}
	}
	var places []string
	if o.Home != "" {
		places = append(places,
			filepath.Join(o.Home, ".local", "bin", exe),
			filepath.Join(o.Home, ".npm-global", "bin", exe),
			filepath.Join(o.Home, ".bun", "bin", exe),
			filepath.Join(o.Home, ".volta", "bin", exe),
			filepath.Join(o.Home, "."+name, "bin", exe), // ~/.opencode/bin
		)
		for _, d := range a.HomeDirs {
			places = append(places, filepath.Join(o.Home, d, exe))
		}
		if runtime.GOOS == "windows" {
			places = append(places, filepath.Join(o.Home, "AppData", "Roaming", "npm", name+".cmd"))
		}
	}
	if prefix := getenv("npm_config_prefix"); prefix != "" {
		places = append(places, filepath.Join(prefix, "bin", exe))
	}
	places = append(places, filepath.Join("/usr/local/bin", exe), filepath.Join("/opt/homebrew/bin", exe))
	for _, p := range places {
		if p := executable(p); p != "" {
			return p
		}
	}
	return ""
}

// executable is p when it is a file that can be run.
func executable(p string) string {
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() {
		return ""
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
		return ""
	}
	if _, err := exec.LookPath(p); err != nil {
		return ""
	}
	return p
}
