package export

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/shellquote"
	"github.com/agenthooks/agenthooks/runner"
)

// handler is a Claude-shaped hook handler (Claude Code, Codex, Gemini
// CLI). Timeout is in the target's unit.
type handler struct {
	Name    string `json:"name,omitempty"` // Gemini CLI
	Type    string `json:"type"`
	Command string `json:"command,omitempty"`
	Prompt  string `json:"prompt,omitempty"`
	Model   string `json:"model,omitempty"`
	Timeout int64  `json:"timeout"`
	// ContinueOnBlock makes a Claude prompt hook's "no" at PreToolUse a
	// denial the agent can work with, as Cursor's is, rather than the
	// end of the turn.
	ContinueOnBlock bool `json:"continueOnBlock,omitempty"`
}

// shellEntry is one of Copilot's hook entries.
type shellEntry struct {
	Type       string `json:"type"`
	Bash       string `json:"bash"`
	PowerShell string `json:"powershell"`
	Cwd        string `json:"cwd,omitempty"`
	TimeoutSec int64  `json:"timeoutSec"`
	Matcher    string `json:"matcher,omitempty"`
}

// handler builds h's entry in the target.
func (x *exporter) handler(h *config.Hook, m StepMap, matcher string) any {
	t := x.t
	d := effectiveTimeout(h)
	if t.ShellEntries {
		// Copilot runs bash on Linux and macOS, PowerShell on Windows, in
		// cwd: as Cursor runs the same command through sh or PowerShell
		// from the hooks' folder. Project hooks run from the repository
		// root, which cwd names relative to it.
		cwd := h.Dir
		if h.Source.ProjectLevel() {
			cwd = "."
		}
		return shellEntry{Type: config.TypeCommand, Bash: h.Command, PowerShell: h.Command, Cwd: cwd,
			TimeoutSec: x.seconds(h, d), Matcher: matcher}
	}
	out := handler{Type: h.Type}
	if t.Millis {
		out.Timeout = x.millis(h, d)
	} else {
		out.Timeout = x.seconds(h, d)
	}
	if b, ok := t.EventBudgets[m.Event]; ok && d > b.Limit {
		x.warn(h, KindTimeout, fmt.Sprintf(b.Message, seconds(d)), b.Fix)
	}
	if t.NamedHooks {
		out.Name = x.hookName(h)
	}
	if h.Type == config.TypePrompt {
		out.Prompt, out.Model = h.Prompt, h.Model
		out.ContinueOnBlock = m.Event == "PreToolUse"
		return out
	}
	out.Command = t.command(h)
	return out
}

// command is h's command, run from the folder Cursor runs it from. The cd
// comes first, on its own, so that whatever the command is (a list, a
// pipeline, something run in the background) all of it runs there; if
// the folder is gone the hook exits 1, a failure every agent lets pass,
// as Cursor does when it cannot start a hook.
func (t *Target) command(h *config.Hook) string {
	if h.Dir == "" {
		return h.Command
	}
	dir := shellquote.POSIX(h.Dir)
	if h.Source.ProjectLevel() && t.ProjectDir != "" {
		dir = t.ProjectDir
	}
	return "cd " + dir + " || exit 1; " + h.Command
}

// effectiveTimeout is h's timeout, else the engine's default for its
// type: what Cursor (and agenthooks) would give it.
func effectiveTimeout(h *config.Hook) time.Duration {
	switch {
	case h.Timeout > 0:
		return h.Timeout
	case h.Type == config.TypePrompt:
		return runner.DefaultPromptTimeout
	}
	return runner.DefaultTimeout
}

// seconds converts d to whole seconds (at least 1), rounding up, and
// says so when that changes it.
func (x *exporter) seconds(h *config.Hook, d time.Duration) int64 {
	n := max(int64(math.Ceil(d.Seconds())), 1)
	if time.Duration(n)*time.Second != d {
		x.warn(h, KindTimeout, fmt.Sprintf("timeout %s is written as %d s: %s takes whole seconds", seconds(d), n, x.t.Title),
			"give a whole number of seconds in hooks.json")
	}
	return n
}

// millis converts d to whole milliseconds (at least 1), rounding up.
func (x *exporter) millis(h *config.Hook, d time.Duration) int64 {
	n := max(int64(math.Ceil(float64(d)/float64(time.Millisecond))), 1)
	if time.Duration(n)*time.Millisecond != d {
		x.warn(h, KindTimeout, fmt.Sprintf("timeout %s is written as %d ms: %s takes whole milliseconds", seconds(d), n, x.t.Title),
			"give the timeout in whole milliseconds")
	}
	return n
}

// seconds formats d as Cursor's hooks.json writes it.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// hookName names a Gemini CLI hook after where it came from; Gemini
// uses names in its messages and to disable hooks, and treats two hooks
// with the same name and command as one.
func (x *exporter) hookName(h *config.Hook) string {
	name := "cursor-" + string(h.Step) + "-" + strconv.Itoa(h.Index)
	if x.names[name] {
		base := name + "-" + h.Source.String()
		name = base
		for i := 2; x.names[name]; i++ {
			name = base + "-" + strconv.Itoa(i)
		}
	}
	x.names[name] = true
	return name
}
