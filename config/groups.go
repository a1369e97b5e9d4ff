package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/hookshape"
	"github.com/agenthooks/agenthooks/internal/shellquote"
	"github.com/agenthooks/agenthooks/match"
)

// Groups is the "matcher groups" format of another agent's settings
// files: {"hooks": {"Event": [{"matcher": …, "hooks": [{"type":
// "command", …}]}]}}. The agent's package fills it in; this file reads
// it, with the agent's tables.
type Groups struct {
	// Title is the agent's name in messages.
	Title string
	// Shape runs the hooks read: it becomes each Hook's Shape.
	Shape hookshape.Shape
	// Step maps one of the agent's events to the Cursor step its hooks
	// run as.
	Step func(event string) (event.Step, bool)
	// Events lists the events that run, for messages.
	Events []string
	// KnownEvents lists events that exist but have no Cursor step, so
	// their hooks never run here; a warning names them.
	KnownEvents []string
	// HandlerKeys are the keys of a handler that mean something here;
	// IgnoredKeys are understood but have no effect (with why, or "" to
	// ignore one silently).
	HandlerKeys []string
	IgnoredKeys map[string]string
	// Prepare compiles a group's matcher by the agent's rule; the
	// matchers are shared, as match.Prepare's are.
	Prepare func(pattern string) (*match.Matcher, error)
	// NoMatcher lists the steps whose events ignore the matcher, as the
	// agent does.
	NoMatcher []event.Step
	// Tools are the agent's tool names, which its tool events' matchers
	// name: a one-word matcher that differs from one only in case or
	// spaces never matches, and disarms its hooks.
	Tools []string
}

// envFileVar is the env file variable of the format's shape.
func (g *Groups) envFileVar() string {
	if g == nil || g.Shape == nil {
		return ""
	}
	return g.Shape.EnvFileVar()
}

// Parse reads the hooks of one of the agent's settings files, its env
// block ("env": {"NAME": "value"}, File.Env, which its own hooks get as
// Hook.Env; Load gives it to the hooks of lower sources of the agent too)
// and the plugins it enables ("enabledPlugins", File.Plugins). Its other settings
// (permissions, model, …) are none of agenthooks' business and are not
// looked at. Each handler becomes a Hook of the Cursor step
// its event maps to, with the agent's matcher rule, the format's Shape,
// and no loop limit (Cursor's default for such hooks).
//
// Handlers that call agenthooks itself (what `agenthooks install`
// writes) are left out: they are the bridge from the agent to these very
// hooks, and running them here would recurse.
func (g *Groups) Parse(path string, data []byte, src Source, dir, root string) *File {
	f, r, doc := startFile(path, data, src, dir, root, "a "+g.Title+" settings file", `write {"hooks": { … }}`)
	defer func() { f.Problems = r.sorted() }()
	if doc == nil {
		return f
	}
	// The env block applies whether or not the file's hooks run, as the
	// agent applies it to every process it starts.
	env := stringMap(doc, "env", r, `write "env": {"NAME": "value"}`)
	f.Env = env
	if off, ok := doc.get("disableAllHooks"); ok && off.value.kind == jsonBool && off.value.boolean {
		return f
	}
	f.Plugins = boolMap(doc, "enabledPlugins", r)
	nearMissingKeys(doc, r, "hooks", "enabledPlugins")
	defer func() {
		for _, h := range f.Hooks {
			h.Env = env
		}
	}()
	hooks, ok := doc.get("hooks")
	if !ok {
		return f
	}
	if hooks.value.kind != jsonObject {
		r.errAt(hooks.value.off, "/hooks", "must be an object mapping "+g.Title+" events to matcher groups, got "+hooks.value.kind.String(),
			`write "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…"}]}]}`)
		return f
	}
	for _, m := range hooks.value.members {
		f.Hooks = append(f.Hooks, g.parseEvent(m, r, &f.Bridges)...)
	}
	for _, h := range f.Hooks {
		h.Source, h.File, h.Dir, h.Root = src, path, dir, root
	}
	return f
}

// parseEvent reads one "Event": [groups…] member.
func (g *Groups) parseEvent(m jsonMember, r *reporter, bridges *int) []*Hook {
	ptr := pointerJoin("/hooks", m.key)
	step, ok := g.Step(m.key)
	if !ok {
		msg := g.Title + " event " + strconv.Quote(shorten(m.key)) + " has no Cursor counterpart; its hooks do not run under agenthooks"
		fix := "run them from " + g.Title + " itself; agenthooks runs " + strings.Join(g.sortedEvents(), ", ")
		report := r.warnAt
		if !slices.Contains(g.KnownEvents, m.key) {
			msg = "unknown " + g.Title + " event " + strconv.Quote(shorten(m.key)) + "; its hooks are skipped"
			if s, ok := closest(m.key, append(g.sortedEvents(), g.KnownEvents...)); ok {
				fix = "did you mean " + s + "?"
			}
			// A typo of an event agenthooks runs (preToolUse for
			// PreToolUse) disarms its hooks, as a misspelt step does;
			// an empty list has none to disarm.
			empty := m.value.kind == jsonArray && len(m.value.elems) == 0
			if _, near := nearName(m.key, g.sortedEvents()); near && !empty {
				report = r.disarmAt
			} else if event.Step(m.key).Known() && !empty {
				// A Cursor step written into this agent's file (hooks
				// moved from hooks.json): the agent skips it.
				msg = "unknown " + g.Title + " event " + strconv.Quote(shorten(m.key)) + " (a Cursor step, which belongs in .cursor/hooks.json); its hooks are skipped"
				fix = "move them to .cursor/hooks.json, or use one of " + g.Title + "'s events: " + strings.Join(g.sortedEvents(), ", ")
				report = r.disarmAt
			}
		}
		report(m.keyOff, ptr, msg, fix)
		return nil
	}
	if m.value.kind != jsonArray {
		r.errAt(m.value.off, ptr, "must be an array of matcher groups, got "+m.value.kind.String(),
			`write "`+m.key+`": [{"matcher": "…", "hooks": [{"type": "command", "command": "…"}]}]`)
		return nil
	}
	var hooks []*Hook
	index := 0
	for gi, grp := range m.value.elems {
		gptr := pointerIndex(ptr, gi)
		if grp.kind != jsonObject {
			r.errAt(grp.off, gptr, "each matcher group must be an object, got "+grp.kind.String(),
				`write {"matcher": "…", "hooks": [{"type": "command", "command": "…"}]}`)
			continue
		}
		matcher, pattern, ok := g.matcher(grp, step, gptr, r)
		if !ok {
			continue
		}
		list, ok := grp.get("hooks")
		if !ok || list.value.kind != jsonArray {
			at := grp.off
			if ok {
				at = list.value.off
			}
			r.errAt(at, pointerJoin(gptr, "hooks"), `each matcher group needs "hooks": an array of handlers`,
				`write "hooks": [{"type": "command", "command": "…"}]`)
			continue
		}
		for hi, hn := range list.value.elems {
			h := g.parseHandler(hn, step, pointerIndex(pointerJoin(gptr, "hooks"), hi), r, bridges)
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

// matcher compiles a group's matcher by the agent's rule. Events without
// matcher support ignore it, as the agent does.
func (g *Groups) matcher(grp *jsonNode, step event.Step, ptr string, r *reporter) (*match.Matcher, string, bool) {
	m, ok := grp.get("matcher")
	if !ok || m.value.kind == jsonNull {
		return nil, "", true
	}
	if m.value.kind != jsonString {
		r.errAt(m.value.off, pointerJoin(ptr, "matcher"), "must be a string, got "+m.value.describe(), `write e.g. "matcher": "Bash"`)
		return nil, "", false
	}
	if slices.Contains(g.NoMatcher, step) {
		return nil, "", true
	}
	c, err := g.Prepare(m.value.str)
	if err != nil {
		r.errAt(m.value.off, pointerJoin(ptr, "matcher"), "is not a valid matcher: "+err.Error(),
			`write tool names separated by | (e.g. "Edit|Write") or a regular expression`)
		return nil, "", false
	}
	if name, ok := g.caseMissedTool(c, m.value.str, step); ok {
		r.disarmAt(m.value.off, pointerJoin(ptr, "matcher"),
			fmt.Sprintf("%q matches no tool %s calls: tool names are matched exactly, case and spaces included, so the hook never runs", m.value.str, g.Title),
			fmt.Sprintf("match %q", name))
	}
	return c, m.value.str, true
}

// caseMissedTool returns the tool a one-word matcher of a tool event
// means when it matches none of the agent's tool names (Tools) only for
// its case or the spaces around it ("bash", "Bash "): the hook never
// runs. A word naming no tool is left alone (a tool of a newer version).
func (g *Groups) caseMissedTool(c *match.Matcher, pattern string, step event.Step) (string, bool) {
	switch step {
	case event.PreToolUse, event.PostToolUse, event.PostToolUseFailure:
	default:
		return "", false
	}
	word := strings.TrimSpace(pattern)
	if len(g.Tools) == 0 || word == "" || strings.ContainsFunc(word, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		return "", false
	}
	meant := ""
	for _, name := range slices.Concat(g.Tools, cursorToolNames) {
		if c.MatchString(name) {
			return "", false
		}
		if meant == "" && strings.EqualFold(word, name) {
			meant = name
		}
	}
	return meant, meant != ""
}

// parseHandler reads one handler; nil when it cannot run here.
func (g *Groups) parseHandler(n *jsonNode, step event.Step, ptr string, r *reporter, bridges *int) *Hook {
	if n.kind != jsonObject {
		r.errAt(n.off, ptr, "each hook handler must be an object, got "+n.kind.String(), `write {"type": "command", "command": "…"}`)
		return nil
	}
	h := &Hook{Step: step, Type: TypeCommand, LoopLimit: LoopLimit{Unlimited: true}, Shape: g.Shape}
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
				if s, near := nearName(v.str, []string{TypeCommand, TypePrompt}); near {
					// "comand" is no type of any agent: the handler
					// runs nowhere, so its guard is disarmed.
					r.disarmAt(v.off, mptr, "unknown hook type "+v.describe()+"; this one is skipped", `did you mean "`+s+`"?`)
					return nil
				}
				r.warnAt(v.off, mptr, g.Title+" "+v.describe()+" hooks do not run under agenthooks; this one is skipped",
					`only "command" and "prompt" hooks run; keep it for `+g.Title+` alone, or rewrite it as a command`)
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
			if msg, fix, bad := timeoutMistake(v.number()); bad {
				r.disarmAt(v.off, mptr, msg, fix)
			}
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
			if why, ok := g.IgnoredKeys[m.key]; ok {
				if why != "" {
					r.warnAt(m.keyOff, mptr, strconv.Quote(m.key)+" has no effect under agenthooks", why)
				}
				continue
			}
			fix := "remove it if it is a typo; it is not used"
			if s, ok := closest(m.key, g.HandlerKeys); ok {
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
			*bridges++
			return nil
		}
		h.Prompt, h.Model = "", ""
	case TypePrompt:
		if strings.TrimSpace(h.Prompt) == "" {
			r.errAt(n.off, ptr, `a prompt hook needs a non-empty "prompt"`, `add "prompt": "…"`)
			return nil
		}
		// $ARGUMENTS is where the agent puts the input; agenthooks
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

func (g *Groups) sortedEvents() []string {
	ev := slices.Clone(g.Events)
	slices.Sort(ev)
	return ev
}

// stringMap reads doc[key] as an object of strings (a settings file's
// env block); a value that is not a string is skipped with a warning.
func stringMap(doc *jsonNode, key string, r *reporter, fix string) map[string]string {
	m, ok := doc.get(key)
	if !ok || m.value.kind == jsonNull {
		return nil
	}
	if m.value.kind != jsonObject {
		r.warnAt(m.value.off, "/"+key, "must be an object of strings, got "+m.value.describe()+"; ignored", fix)
		return nil
	}
	out := map[string]string{}
	for _, e := range m.value.members {
		if e.value.kind != jsonString {
			r.warnAt(e.value.off, pointerJoin("/"+key, e.key), "must be a string, got "+e.value.describe()+"; ignored", "write it in double quotes")
			continue
		}
		out[e.key] = e.value.str
	}
	return out
}

// boolMap reads doc[key] as an object of booleans (enabledPlugins); other
// values are skipped with a warning.
func boolMap(doc *jsonNode, key string, r *reporter) map[string]bool {
	m, ok := doc.get(key)
	if !ok || m.value.kind != jsonObject {
		return nil
	}
	out := map[string]bool{}
	for _, e := range m.value.members {
		if e.value.kind != jsonBool {
			r.warnAt(e.value.off, pointerJoin("/"+key, e.key), "must be true or false, got "+e.value.describe()+"; ignored", `write "`+e.key+`": true`)
			continue
		}
		out[e.key] = e.value.boolean
	}
	return out
}

// nearMissingKeys reports a top-level key that is a typo of one of keys
// the file lacks ("hook" for "hooks", "enabledPlugin"): the agent ignores
// it as it ignores every key it does not know, so the hooks under it, or
// the plugins it enables, never run (Problem.Disarms). An empty value has
// nothing to disarm.
func nearMissingKeys(doc *jsonNode, r *reporter, keys ...string) {
	for _, key := range keys {
		if _, ok := doc.get(key); ok {
			continue
		}
		for _, m := range doc.members {
			if m.value.kind != jsonObject || len(m.value.members) == 0 {
				continue
			}
			if _, near := nearName(m.key, []string{key}); near {
				r.disarmAt(m.keyOff, pointerJoin("", m.key), "unknown key "+strconv.Quote(shorten(m.key))+"; ignored, so what it holds never runs",
					`did you mean "`+key+`"?`)
			}
		}
	}
}
