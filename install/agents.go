package install

import (
	"path/filepath"
	"runtime"

	"github.com/agenthooks/agenthooks/internal/shellquote"
)

// An Agent is one agent's way of calling agenthooks: either groups merged
// into the hooks of a settings file it shares with the user (Claude Code,
// Codex, Gemini CLI), or a file of agenthooks' own (GitHub Copilot's hook
// file, OpenCode's plugin).
type Agent struct {
	Name, Title string
	// project and user are the file for each scope.
	Project func(root string) string
	User    func(e Env) string
	// events and group: a settings file's hooks.<event> arrays get group.
	Events []string
	Group  func(command, event string) Group
	// file: the whole file's content.
	File func(bin string) []byte
	// note is said after an install, when there is something the user
	// must do in the agent itself.
	Note string
	// Program is the agent's program, as it is installed; HomeDirs are
	// folders under the home, besides the usual ones, where its own
	// installer puts it.
	Program  string
	HomeDirs []string
	// gates are the agent's own gates (gates.go); nil when it has none.
	Gates GateSet
	// FolderTrust: the agent trusts folder by folder, even its user-level
	// hooks, so trusting at user scope needs the folder.
	FolderTrust bool
	// wired reads the command lines that run agenthooks from the agent's
	// own file, when its hooks are not JSON (OpenCode's plugin).
	Wired func(data []byte) []string
}

// Env is what agent paths depend on besides the workspace.
type Env struct {
	Home   string
	Getenv func(string) string
}

// Dir is $VAR when set, else home/rel.
func (e Env) Dir(v, rel string) string {
	if d := e.Getenv(v); d != "" {
		return d
	}
	return filepath.Join(e.Home, rel)
}

// TimeoutSeconds is the time agents are told to give agenthooks: well
// beyond a hook's own default of 60 s, since agenthooks stops its hooks
// itself; an agent that gives up first treats the call as failed.
const TimeoutSeconds = 600

// Agents are the agents install wires, in the order they are listed: each
// agent's package defines its Agent, and the registry (package
// agent/agents) gathers them.
type Agents []*Agent

// Names lists the --agent values.
func (as Agents) Names() []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	return out
}

func (as Agents) Lookup(name string) (*Agent, bool) {
	for _, a := range as {
		if a.Name == name {
			return a, true
		}
	}
	return nil, false
}

// Group and handler are a matcher group of a Claude-shaped settings file,
// in the order people write their fields.
type Group struct {
	Matcher string    `json:"matcher,omitempty"`
	Hooks   []Handler `json:"hooks"`
}

type Handler struct {
	Name    string `json:"name,omitempty"`
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

// command is the command line an agent runs: agenthooks by its absolute
// path, quoted for the shell the agent uses.
func command(bin, agent string) string {
	if runtime.GOOS == "windows" {
		// Claude Code, Codex and Gemini CLI run hook commands through Git
		// Bash or cmd/PowerShell there; a double-quoted path with forward
		// slashes works in each.
		return `"` + filepath.ToSlash(bin) + `" run --from ` + agent
	}
	return POSIXCommand(bin, agent, "")
}

func POSIXCommand(bin, agent, event string) string {
	argv := []string{bin, "run", "--from", agent}
	if event != "" {
		argv = append(argv, event)
	}
	return shellquote.POSIXCommand(argv)
}

// Title is the agent's name as people know it ("Codex", "Copilot CLI").
func (as Agents) Title(name string) string {
	if a, ok := as.Lookup(name); ok {
		return a.Title
	}
	return name
}

// Events lists the events install wires for the agent, in its own names
// (nil for OpenCode, whose plugin names its hooks itself).
func (as Agents) Events(name string) []string {
	if a, ok := as.Lookup(name); ok {
		return append([]string(nil), a.Events...)
	}
	return nil
}
