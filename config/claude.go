package config

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/claudecode"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/shellquote"
	"github.com/agenthooks/agenthooks/match"
)

// Claude Code settings files (docs/architecture.md, the sources: ranks 5–7).

// ClaudeLocalFile, ClaudeProjectFile and ClaudeUserFile are Claude Code's
// settings files that hold hooks.
func ClaudeLocalFile(root string) string {
	return filepath.Join(root, ".claude", "settings.local.json")
}
func ClaudeProjectFile(root string) string { return filepath.Join(root, ".claude", "settings.json") }
func ClaudeUserFile(home string) string    { return filepath.Join(home, ".claude", "settings.json") }

// claudeHandlerKeys are the keys of a Claude Code hook handler that mean
// something here; claudeIgnoredKeys are understood but have no effect.
var (
	claudeHandlerKeys = []string{"type", "command", "prompt", "model", "timeout", "args"}
	claudeIgnoredKeys = map[string]string{
		"statusMessage":   "",
		"once":            "",
		"continueOnBlock": "",
		"async":           "the hook runs to completion before the action, so its answer counts",
		"asyncRewake":     "the hook runs to completion before the action",
		"if":              "the hook runs for every call its matcher accepts; check the arguments in the hook",
		"shell":           "commands run through sh -c (PowerShell on Windows)",
	}
)

// ParseClaudeFile reads the hooks of a Claude Code settings file. Its
// other settings (permissions, env, model, …) are none of agenthooks'
// business and are not looked at. Each handler becomes a Hook of the
// Cursor step its event maps to, with Claude Code's matcher rule, Claude
// set, and no loop limit (Cursor's default for Claude Code hooks).
//
// Handlers that call agenthooks itself (what `agenthooks install --agent
// claude` writes) are left out: they are the bridge from Claude Code to
// these very hooks, and running them here would recurse.
func ParseClaudeFile(path string, data []byte, src Source, dir, root string) *File {
	f, r, doc := startFile(path, data, src, dir, root, "a Claude Code settings file", `write {"hooks": { … }}`)
	defer func() { f.Problems = r.sorted() }()
	if doc == nil {
		return f
	}
	if off, ok := doc.get("disableAllHooks"); ok && off.value.kind == jsonBool && off.value.boolean {
		return f
	}
	hooks, ok := doc.get("hooks")
	if !ok {
		return f
	}
	if hooks.value.kind != jsonObject {
		r.errAt(hooks.value.off, "/hooks", "must be an object mapping Claude Code events to matcher groups, got "+hooks.value.kind.String(),
			`write "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…"}]}]}`)
		return f
	}
	for _, m := range hooks.value.members {
		f.Hooks = append(f.Hooks, parseClaudeEvent(m, r)...)
	}
	for _, h := range f.Hooks {
		h.Source, h.File, h.Dir, h.Root = src, path, dir, root
	}
	return f
}

// parseClaudeEvent reads one "Event": [groups…] member.
func parseClaudeEvent(m jsonMember, r *reporter) []*Hook {
	ptr := pointerJoin("/hooks", m.key)
	step, ok := claudecode.Step(m.key)
	if !ok {
		msg := "Claude Code event " + strconv.Quote(shorten(m.key)) + " has no Cursor counterpart; its hooks do not run under agenthooks"
		fix := "run them from Claude Code itself; agenthooks runs " + strings.Join(sortedEvents(), ", ")
		if !slices.Contains(claudecode.KnownEvents, m.key) {
			msg = "unknown Claude Code event " + strconv.Quote(shorten(m.key)) + "; its hooks are skipped"
			if s, ok := closest(m.key, append(sortedEvents(), claudecode.KnownEvents...)); ok {
				fix = "did you mean " + s + "?"
			}
		}
		r.warnAt(m.keyOff, ptr, msg, fix)
		return nil
	}
	if m.value.kind != jsonArray {
		r.errAt(m.value.off, ptr, "must be an array of matcher groups, got "+m.value.kind.String(),
			`write "`+m.key+`": [{"matcher": "…", "hooks": [{"type": "command", "command": "…"}]}]`)
		return nil
	}
	var hooks []*Hook
	index := 0
	for gi, g := range m.value.elems {
		gptr := pointerIndex(ptr, gi)
		if g.kind != jsonObject {
			r.errAt(g.off, gptr, "each matcher group must be an object, got "+g.kind.String(),
				`write {"matcher": "…", "hooks": [{"type": "command", "command": "…"}]}`)
			continue
		}
		matcher, pattern, ok := claudeMatcher(g, step, gptr, r)
		if !ok {
			continue
		}
		list, ok := g.get("hooks")
		if !ok || list.value.kind != jsonArray {
			at := g.off
			if ok {
				at = list.value.off
			}
			r.errAt(at, pointerJoin(gptr, "hooks"), `each matcher group needs "hooks": an array of handlers`,
				`write "hooks": [{"type": "command", "command": "…"}]`)
			continue
		}
		for hi, hn := range list.value.elems {
			h := parseClaudeHandler(hn, step, pointerIndex(pointerJoin(gptr, "hooks"), hi), r)
			if h == nil {
				continue
			}
			h.Matcher, h.Match, h.Index = pattern, matcher, index
			index++
			hooks = append(hooks, h)
		}
	}
	return hooks
}

// claudeMatcher compiles a group's matcher by Claude Code's rule. Events
// without matcher support ignore it, as Claude Code does.
func claudeMatcher(g *jsonNode, step event.Step, ptr string, r *reporter) (*match.Matcher, string, bool) {
	m, ok := g.get("matcher")
	if !ok || m.value.kind == jsonNull {
		return nil, "", true
	}
	if m.value.kind != jsonString {
		r.errAt(m.value.off, pointerJoin(ptr, "matcher"), "must be a string, got "+m.value.describe(), `write e.g. "matcher": "Bash"`)
		return nil, "", false
	}
	switch step {
	case event.Stop, event.BeforeSubmitPrompt:
		return nil, "", true
	}
	c, err := match.PrepareClaude(m.value.str)
	if err != nil {
		r.errAt(m.value.off, pointerJoin(ptr, "matcher"), "is not a valid matcher: "+err.Error(),
			`write tool names separated by | (e.g. "Edit|Write") or a regular expression`)
		return nil, "", false
	}
	return c, m.value.str, true
}

// parseClaudeHandler reads one handler; nil when it cannot run here.
func parseClaudeHandler(n *jsonNode, step event.Step, ptr string, r *reporter) *Hook {
	if n.kind != jsonObject {
		r.errAt(n.off, ptr, "each hook handler must be an object, got "+n.kind.String(), `write {"type": "command", "command": "…"}`)
		return nil
	}
	h := &Hook{Step: step, Type: TypeCommand, LoopLimit: LoopLimit{Unlimited: true}, Claude: true}
	var args []string
	for _, m := range n.members {
		mptr := pointerJoin(ptr, m.key)
		v := m.value
		switch m.key {
		case "type":
			if v.kind != jsonString {
				r.errAt(v.off, mptr, `must be "command" or "prompt", got `+v.describe(), `write "type": "command"`)
				return nil
			}
			switch v.str {
			case TypeCommand, TypePrompt:
				h.Type = v.str
			default:
				r.warnAt(v.off, mptr, "Claude Code "+v.describe()+" hooks do not run under agenthooks; this one is skipped",
					`only "command" and "prompt" hooks run; keep it for Claude Code alone, or rewrite it as a command`)
				return nil
			}
		case "command", "prompt", "model":
			if v.kind != jsonString {
				r.errAt(v.off, mptr, "must be a string, got "+v.describe(), "write it in double quotes")
				return nil
			}
			switch m.key {
			case "command":
				h.Command = v.str
			case "prompt":
				h.Prompt = v.str
			default:
				h.Model = v.str
			}
		case "timeout":
			if v.kind != jsonNumber || !(v.number() > 0) || v.number() >= maxTimeoutSeconds {
				r.errAt(v.off, mptr, "must be a positive number of seconds, got "+v.describe(), `use e.g. "timeout": 30`)
				return nil
			}
			h.Timeout = time.Duration(v.number() * float64(time.Second))
		case "args":
			if v.kind != jsonArray {
				r.errAt(v.off, mptr, "must be an array of strings, got "+v.describe(), `write "args": ["--flag", "value"]`)
				return nil
			}
			for _, e := range v.elems {
				if e.kind != jsonString {
					r.errAt(e.off, mptr, "must be an array of strings, got an element that is "+e.kind.String(), "quote every argument")
					return nil
				}
				args = append(args, e.str)
			}
		default:
			if why, ok := claudeIgnoredKeys[m.key]; ok {
				if why != "" {
					r.warnAt(m.keyOff, mptr, strconv.Quote(m.key)+" has no effect under agenthooks", why)
				}
				continue
			}
			fix := "remove it if it is a typo; it is not used"
			if s, ok := closest(m.key, claudeHandlerKeys); ok {
				fix = "did you mean " + strconv.Quote(s) + "?"
			}
			r.warnAt(m.keyOff, mptr, "unknown key "+strconv.Quote(shorten(m.key))+"; ignored", fix)
		}
	}
	switch h.Type {
	case TypeCommand:
		if strings.TrimSpace(h.Command) == "" {
			r.errAt(n.off, ptr, `a command hook needs a non-empty "command"`, `add "command": "./script.sh"`)
			return nil
		}
		if args != nil {
			// Exec form: no shell; the quoted line gives the same argv.
			h.Command = shellquote.POSIXCommand(append([]string{h.Command}, args...))
		}
		if isAgenthooksBridge(h.Command) {
			return nil
		}
		h.Prompt, h.Model = "", ""
	case TypePrompt:
		if strings.TrimSpace(h.Prompt) == "" {
			r.errAt(n.off, ptr, `a prompt hook needs a non-empty "prompt"`, `add "prompt": "…"`)
			return nil
		}
		// $ARGUMENTS is where Claude Code puts the input; agenthooks
		// appends the input to every prompt, so the marker is dropped.
		h.Prompt = strings.TrimSpace(strings.ReplaceAll(h.Prompt, "$ARGUMENTS", ""))
		h.Command = ""
	}
	return h
}

// isAgenthooksBridge reports whether a command runs agenthooks for an
// agent (`… agenthooks run --from …`).
func isAgenthooksBridge(command string) bool {
	return strings.Contains(command, "agenthooks") && strings.Contains(command, " run --from ")
}

func sortedEvents() []string {
	ev := claudecode.Events()
	slices.Sort(ev)
	return ev
}
