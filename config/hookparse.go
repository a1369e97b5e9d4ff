package config

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/match"
)

// hookKeys are the per-hook keys this version understands.
var hookKeys = []string{"type", "command", "prompt", "model", "timeout", "loop_limit", "failClosed", "matcher"}

// maxTimeoutSeconds is the largest timeout a time.Duration can hold.
const maxTimeoutSeconds = float64(math.MaxInt64 / int64(time.Second))

// maxLoopLimit is the largest integer a JavaScript number holds exactly;
// beyond it "loop_limit" cannot have meant a count.
const maxLoopLimit = 1<<53 - 1

// parseHook validates one hook definition at ptr. It returns nil when the
// definition has an error (reported to r). Index and the source fields are
// the caller's to set.
func parseHook(n *jsonNode, step event.Step, ptr string, r *reporter) *Hook {
	if n.kind != jsonObject {
		fix := `write {"command": "./script.sh"}`
		if n.kind == jsonString {
			fix = `write {"command": ` + strconv.Quote(n.str) + `}`
		}
		r.errAt(n.off, ptr, "each hook must be an object, got "+n.kind.String(), fix)
		return nil
	}
	errorsBefore := r.errors
	b := &hookBuilder{h: &Hook{Step: step, Type: TypeCommand, LoopLimit: LoopLimit{N: DefaultLoopLimit}}, r: r}
	for _, m := range n.members {
		b.field(m, ptr)
	}
	if !b.badType {
		// With the type unknown, "missing command" would only be noise.
		checkRequired(b.h, n, ptr, r)
	}
	if r.errors > errorsBefore {
		return nil
	}
	return b.h
}

// hookBuilder fills a Hook from the members of its definition.
type hookBuilder struct {
	h       *Hook
	r       *reporter
	badType bool
}

func (b *hookBuilder) field(m jsonMember, hookPtr string) {
	p := hookParse{h: b.h, r: b.r, m: m, hookPtr: hookPtr}
	h, v := p.h, m.value
	switch m.key {
	case "type":
		b.badType = true
		if s, ok := p.str(`"command" or "prompt"`); ok {
			switch s {
			case TypeCommand, TypePrompt:
				h.Type, b.badType = s, false
			default:
				fix := `use "command" or "prompt"`
				if l := strings.ToLower(s); l == TypeCommand || l == TypePrompt {
					fix = "write it in lowercase: " + strconv.Quote(l)
				}
				p.r.errAt(v.off, p.ptr(), `must be "command" or "prompt", got `+v.describe(), fix)
			}
		}
	case "command":
		h.Command, _ = p.str("a command line or script path")
	case "prompt":
		h.Prompt, _ = p.str("the question the model should answer")
	case "model":
		h.Model, _ = p.str("a model name")
	case "timeout":
		p.timeout()
	case "loop_limit":
		p.loopLimit()
	case "failClosed":
		p.failClosed()
	case "matcher":
		p.matcher()
	default:
		p.extra()
	}
}

// hookParse validates one member of a hook definition.
type hookParse struct {
	h       *Hook
	r       *reporter
	m       jsonMember
	hookPtr string // the hook's JSON Pointer
}

// ptr is the member's JSON Pointer, made only for a problem.
func (p hookParse) ptr() string { return pointerJoin(p.hookPtr, p.m.key) }

func (p hookParse) failClosed() {
	v := p.m.value
	if v.kind == jsonBool {
		p.h.FailClosed = v.boolean
		return
	}
	fix := `use "failClosed": true or false`
	if v.kind == jsonString && (v.str == "true" || v.str == "false") {
		fix = `write "failClosed": ` + v.str + " (without quotes)"
	}
	p.r.errAt(v.off, p.ptr(), "must be true or false, got "+v.describe(), fix)
}

// str checks that the value is a string, reporting otherwise.
func (p hookParse) str(what string) (string, bool) {
	v := p.m.value
	if v.kind == jsonString {
		return v.str, true
	}
	p.r.errAt(v.off, p.ptr(), "must be a string ("+what+"), got "+v.describe(),
		"write it in double quotes")
	return "", false
}

func (p hookParse) timeout() {
	v := p.m.value
	const fix = `use e.g. "timeout": 30`
	if v.kind != jsonNumber {
		f := fix
		if v.kind == jsonString {
			f = "write the number without quotes, e.g. \"timeout\": 30"
		}
		p.r.errAt(v.off, p.ptr(), "must be a positive number of seconds, got "+v.describe(), f)
		return
	}
	secs := v.number()
	switch {
	case !(secs > 0):
		p.r.errAt(v.off, p.ptr(), "must be a positive number of seconds, got "+v.describe(), fix)
	case secs >= maxTimeoutSeconds:
		p.r.errAt(v.off, p.ptr(), "is too large, got "+v.describe()+" seconds", fix)
	default:
		d := time.Duration(secs * float64(time.Second))
		if d <= 0 {
			p.r.errAt(v.off, p.ptr(), "is too small, got "+v.describe()+" seconds", fix)
			return
		}
		p.h.Timeout = d
		p.checkTimeout(secs)
	}
}

func (p hookParse) loopLimit() {
	v := p.m.value
	if v.kind == jsonNull {
		p.h.LoopLimit = LoopLimit{Unlimited: true}
		p.checkLoopLimit()
		return
	}
	if v.kind == jsonNumber {
		if n := v.number(); n >= 0 && n <= maxLoopLimit && n == math.Trunc(n) {
			p.h.LoopLimit = LoopLimit{N: int(n)}
			p.checkLoopLimit()
			return
		}
	}
	p.r.errAt(v.off, p.ptr(), "must be a non-negative integer or null, got "+v.describe(),
		`use e.g. "loop_limit": 5, or null for no limit`)
}

func (p hookParse) matcher() {
	s, ok := p.str("a regular expression")
	if !ok {
		return
	}
	m, err := match.Prepare(s)
	if err != nil {
		msg := err.Error()
		if !strings.Contains(msg, "regular expression") {
			msg = "is not a valid regular expression: " + msg
		}
		p.r.errAt(p.m.value.off, p.ptr(), msg,
			`correct the pattern; matchers are JavaScript regular expressions, and in JSON a backslash is written twice, as in "\\("`)
		return
	}
	p.h.Matcher, p.h.Match = s, m
	p.checkMatcherReach(s)
	p.checkMatcherTool(s)
}

// extra keeps a key this version does not know and warns about it: it
// may be a typo, or an option of a newer Cursor.
func (p hookParse) extra() {
	v := p.m.value
	if p.h.Extra == nil {
		p.h.Extra = make(map[string]json.RawMessage)
	}
	p.h.Extra[p.m.key] = append(json.RawMessage(nil), p.r.raw(v)...)
	if s, ok := nearName(p.m.key, hookKeys); ok {
		// failclosed, matchers: the option the author meant is off.
		p.r.disarmAt(p.m.keyOff, p.ptr(), "unknown key "+strconv.Quote(shorten(p.m.key))+"; ignored", "did you mean "+strconv.Quote(s)+"?")
		return
	}
	fix := "remove it if it is a typo; it is kept but not used"
	if s, ok := closest(p.m.key, hookKeys); ok {
		fix = "did you mean " + strconv.Quote(s) + "?"
	} else if p.m.key == "hooks" {
		fix = p.r.groupsLook() + `; in hooks.json each hook is {"command": "…"} directly in the step's array`
	}
	p.r.warnAt(p.m.keyOff, p.ptr(), "unknown key "+strconv.Quote(shorten(p.m.key))+"; ignored", fix)
}

// checkRequired applies the rules that depend on the hook's type: a
// command hook needs a command, a prompt hook a prompt; the fields of the
// other type are ignored with a warning.
func checkRequired(h *Hook, n *jsonNode, ptr string, r *reporter) {
	_, hasCommand := n.get("command")
	_, hasPrompt := n.get("prompt")
	model, hasModel := n.get("model")
	switch h.Type {
	case TypeCommand:
		switch {
		case !hasCommand:
			fix := `add "command": "./script.sh"`
			if hasPrompt {
				fix = `add "type": "prompt" for a prompt hook, or "command": "./script.sh"`
			} else if _, ok := n.get("hooks"); ok {
				fix = r.groupsLook() + `; write {"command": "…"} directly in the step's array`
			}
			r.errAt(n.off, ptr, `missing "command"`, fix)
		case strings.TrimSpace(h.Command) == "":
			if c, _ := n.get("command"); c.value.kind == jsonString {
				r.errAt(c.value.off, pointerJoin(ptr, "command"), "must not be empty", `write the command to run, e.g. "./hooks/check.sh"`)
			}
		}
		if prompt, ok := n.get("prompt"); ok && hasCommand {
			r.warnAt(prompt.keyOff, pointerJoin(ptr, "prompt"), `ignored: "prompt" is used only by prompt hooks`,
				`remove it, or set "type": "prompt" and remove "command"`)
		}
		if hasModel {
			r.warnAt(model.keyOff, pointerJoin(ptr, "model"), `ignored: "model" is used only by prompt hooks`, "remove it")
		}
		h.Prompt, h.Model = "", ""
	case TypePrompt:
		p, _ := n.get("prompt")
		switch {
		case !hasPrompt:
			r.errAt(n.off, ptr, `missing "prompt"`, `add "prompt": "Is this command safe? …"`)
		case strings.TrimSpace(h.Prompt) == "" && p.value.kind == jsonString:
			r.errAt(p.value.off, pointerJoin(ptr, "prompt"), "must not be empty", "write the condition the model should check")
		}
		if c, ok := n.get("command"); ok {
			r.warnAt(c.keyOff, pointerJoin(ptr, "command"), `ignored: "command" is not used by prompt hooks`, "remove it")
		}
		h.Command = ""
	}
}
