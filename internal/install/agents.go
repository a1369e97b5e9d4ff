package install

import (
	_ "embed"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/internal/shellquote"
)

// An agent is one agent's way of calling agenthooks: either groups merged
// into the hooks of a settings file it shares with the user (Claude Code,
// Codex, Gemini CLI), or a file of agenthooks' own (GitHub Copilot's hook
// file, OpenCode's plugin).
type agent struct {
	name, title string
	// project and user are the file for each scope.
	project func(root string) string
	user    func(e env) string
	// events and group: a settings file's hooks.<event> arrays get group.
	events []string
	group  func(command, event string) group
	// file: the whole file's content.
	file func(bin string) []byte
	// note is said after an install, when there is something the user
	// must do in the agent itself.
	note string
}

// env is what agent paths depend on besides the workspace.
type env struct {
	home   string
	getenv func(string) string
}

// dir is $VAR when set, else home/rel.
func (e env) dir(v, rel string) string {
	if d := e.getenv(v); d != "" {
		return d
	}
	return filepath.Join(e.home, rel)
}

// timeoutSeconds is the time agents are told to give agenthooks: well
// beyond a hook's own default of 60 s, since agenthooks stops its hooks
// itself; an agent that gives up first treats the call as failed.
const timeoutSeconds = 600

var agents = []*agent{
	{
		name: "claude", title: "Claude Code",
		project: func(root string) string { return filepath.Join(root, ".claude", "settings.json") },
		user:    func(e env) string { return filepath.Join(e.home, ".claude", "settings.json") },
		events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
			"Stop", "SubagentStop", "PreCompact", "SessionEnd"},
		group: func(command, _ string) group {
			return group{Hooks: []handler{{Type: "command", Command: command}}}
		},
	},
	{
		name: "codex", title: "Codex",
		project: func(root string) string { return filepath.Join(root, ".codex", "hooks.json") },
		user:    func(e env) string { return filepath.Join(e.dir("CODEX_HOME", ".codex"), "hooks.json") },
		events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStop",
			"PreCompact", "SessionEnd"},
		group: func(command, event string) group {
			t := timeoutSeconds
			if event == "SessionEnd" {
				// Codex gives SessionEnd hooks 3 s at most, and warns
				// about a longer timeout at every start.
				t = 3
			}
			return group{Hooks: []handler{{Type: "command", Command: command, Timeout: t}}}
		},
	},
	{
		name: "gemini", title: "Gemini CLI",
		project: func(root string) string { return filepath.Join(root, ".gemini", "settings.json") },
		user:    func(e env) string { return filepath.Join(e.dir("GEMINI_CLI_HOME", ""), ".gemini", "settings.json") },
		events:  []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "PreCompress", "SessionEnd"},
		group: func(command, _ string) group {
			return group{Matcher: "*", Hooks: []handler{{Name: "agenthooks", Type: "command", Command: command, Timeout: timeoutSeconds * 1000}}}
		},
		note: "Gemini CLI runs settings hooks only in a trusted folder: trust it in Gemini CLI " +
			"(the trust dialog, or ~/.gemini/trustedFolders.json).",
	},
	{
		name: "copilot", title: "Copilot CLI",
		project: func(root string) string { return filepath.Join(root, ".github", "hooks", "agenthooks.json") },
		user: func(e env) string {
			return filepath.Join(e.dir("COPILOT_HOME", ".copilot"), "hooks", "agenthooks.json")
		},
		file: copilotFile,
	},
	{
		name: "opencode", title: "OpenCode",
		project: func(root string) string { return filepath.Join(root, ".opencode", "plugins", "agenthooks.js") },
		user: func(e env) string {
			return filepath.Join(e.dir("XDG_CONFIG_HOME", ".config"), "opencode", "plugins", "agenthooks.js")
		},
		file: opencodeFile,
	},
}

// Agents lists the --agent values.
func Agents() []string {
	out := make([]string, len(agents))
	for i, a := range agents {
		out[i] = a.name
	}
	return out
}

func lookup(name string) (*agent, bool) {
	for _, a := range agents {
		if a.name == name {
			return a, true
		}
	}
	return nil, false
}

// copilotEvents are the Copilot events agenthooks serves. Copilot's
// camelCase payloads do not name their event, so it goes on the command
// line.
var copilotEvents = []string{"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse",
	"postToolUseFailure", "agentStop", "subagentStop", "preCompact", "sessionEnd"}

// copilotHook is one entry of a Copilot hook file.
type copilotHook struct {
	Type       string `json:"type"`
	Bash       string `json:"bash"`
	PowerShell string `json:"powershell"`
	TimeoutSec int    `json:"timeoutSec"`
}

func copilotFile(bin string) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"version\": 1,\n  \"hooks\": {")
	for i, ev := range copilotEvents {
		entry, _ := jsonplain.MarshalIndent([]copilotHook{{
			Type:       "command",
			Bash:       posixCommand(bin, "copilot", ev),
			PowerShell: "& " + shellquote.PowerShellAlways(bin) + " run --from copilot " + ev,
			TimeoutSec: timeoutSeconds,
		}}, "    ", "  ")
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    " + string(mustJSON(ev)) + ": " + string(entry))
	}
	b.WriteString("\n  }\n}\n")
	return []byte(b.String())
}

// group and handler are a matcher group of a Claude-shaped settings file,
// in the order people write their fields.
type group struct {
	Matcher string    `json:"matcher,omitempty"`
	Hooks   []handler `json:"hooks"`
}

type handler struct {
	Name    string `json:"name,omitempty"`
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

//go:embed opencode.js
var opencodePlugin string

func opencodeFile(bin string) []byte {
	s := strings.Replace(opencodePlugin, `"__AGENTHOOKS_BIN__"`, string(mustJSON(bin)), 1)
	s = strings.Replace(s, "__TIMEOUT_MS__", strconv.Itoa(timeoutSeconds*1000), 1)
	return []byte(s)
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
	return posixCommand(bin, agent, "")
}

func posixCommand(bin, agent, event string) string {
	argv := []string{bin, "run", "--from", agent}
	if event != "" {
		argv = append(argv, event)
	}
	return shellquote.POSIXCommand(argv)
}

// Title is the agent's name as people know it ("Codex", "Copilot CLI").
func Title(name string) string {
	if a, ok := lookup(name); ok {
		return a.title
	}
	return name
}

// Events lists the events install wires for the agent, in its own names
// (nil for OpenCode, whose plugin names its hooks itself).
func Events(name string) []string {
	if name == "copilot" {
		return append([]string(nil), copilotEvents...)
	}
	if a, ok := lookup(name); ok {
		return append([]string(nil), a.events...)
	}
	return nil
}
